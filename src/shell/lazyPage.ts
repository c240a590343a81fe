/**
 * A lazily loaded page that can also be asked for before it renders: the shell asks for the first
 * screen's code while the texts and the area load (src/App.tsx, src/shell/AreaApp.tsx), rather
 * than when the router reaches it.
 *
 * Once its code is there, the page renders at once, without suspending: React.lazy suspends on its
 * first render even when the code arrived long before, and React then shows the Suspense fallback
 * and holds back the page's reveal until 300 ms after it (its fallback throttling): the first
 * screen waited for nothing. A page mounted before its code arrived stays the lazy one.
 */
import { type ComponentType, createElement, type FunctionComponent, lazy, useState } from 'react';

export type PreloadablePage = FunctionComponent & {
  preload: () => Promise<unknown>;
};

/** A component of a loaded module, else React.lazy of it; `preload` loads it once (again after a failure). */
export function lazyModule<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): FunctionComponent<P> & { preload: () => Promise<{ default: ComponentType<P> }> } {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
        return module;
      },
      (error: unknown) => {
        pending = undefined;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Page(props: P) {
    // Chosen when it mounts and kept: switching a mounted page from the lazy one to the loaded one
    // would mount it anew.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Component, props);
  }
  return Object.assign(Page, { preload });
}

export function lazyPage(load: () => Promise<{ default: ComponentType }>): PreloadablePage {
  return lazyModule(load);
}

/** Starts loading a page's code if it can be (a failure shows when it renders: lazy asks again). */
export function preloadPage(page: unknown): void {
  const preload = (page as Partial<PreloadablePage> | undefined)?.preload;
  preload?.().catch(() => undefined);
}
