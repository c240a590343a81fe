/**
 * A lazily loaded page that can also be asked for before it renders: the shell asks for the first
 * screen's code while the texts and the area load (src/App.tsx, src/shell/AreaApp.tsx), rather
 * than when the router reaches it.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

export type PreloadablePage = LazyExoticComponent<ComponentType> & {
  preload: () => Promise<unknown>;
};

export function lazyPage(load: () => Promise<{ default: ComponentType }>): PreloadablePage {
  return Object.assign(lazy(load), { preload: load });
}

/** Starts loading a page's code if it can be (a failure shows when it renders: lazy asks again). */
export function preloadPage(page: unknown): void {
  const preload = (page as Partial<PreloadablePage> | undefined)?.preload;
  preload?.().catch(() => undefined);
}
