import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescingScheduler, coalescingTimeoutProvider } from './queryTimers.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('coalescingScheduler', () => {
  it('runs everything scheduled before its timer in one timer, in order', () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const schedule = coalescingScheduler();
    const seen: number[] = [];
    for (let index = 0; index < 5; index += 1) schedule(() => seen.push(index));
    expect(spy).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([]);
    vi.runOnlyPendingTimers();
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    schedule(() => seen.push(5));
    expect(spy).toHaveBeenCalledTimes(2);
    vi.runOnlyPendingTimers();
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('runs the others when one throws', () => {
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    const schedule = coalescingScheduler();
    const seen: string[] = [];
    schedule(() => {
      throw new Error('boom');
    });
    schedule(() => seen.push('after'));
    vi.runOnlyPendingTimers();
    expect(seen).toEqual(['after']);
    expect(reportError).toHaveBeenCalledWith(new Error('boom'));
    vi.unstubAllGlobals();
  });
});

describe('coalescingTimeoutProvider', () => {
  it('groups long timers by the second they are due in, one browser timer each', () => {
    vi.setSystemTime(10_100);
    const provider = coalescingTimeoutProvider(1000);
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const fired: string[] = [];
    // Due at 310,100 and 310,300: both in the second ending at 311,000.
    provider.setTimeout(() => fired.push('a'), 300_000);
    vi.advanceTimersByTime(200);
    provider.setTimeout(() => fired.push('b'), 300_000);
    // Due at 311,800: the next second.
    provider.setTimeout(() => fired.push('c'), 301_500);
    expect(spy).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(300_699);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['a', 'b']);
    vi.advanceTimersByTime(2000);
    expect(fired).toEqual(['a', 'b', 'c']);
    expect(provider.pending()).toBe(0);
  });

  it('never fires a long timer early, nor a cleared one', () => {
    const provider = coalescingTimeoutProvider(1000, () => Date.now());
    const fired: string[] = [];
    const start = Date.now();
    const id = provider.setTimeout(() => fired.push('cleared'), 5000);
    provider.setTimeout(() => fired.push(`kept ${Date.now() - start >= 5000}`), 5000);
    provider.clearTimeout(id);
    vi.advanceTimersByTime(7000);
    expect(fired).toEqual(['kept true']);
  });

  it('leaves short timers and intervals to the browser, and clears them', () => {
    const provider = coalescingTimeoutProvider();
    const fired: string[] = [];
    const short = provider.setTimeout(() => fired.push('short'), 10);
    expect(Number(short)).toBeGreaterThan(0);
    provider.setTimeout(() => fired.push('other'), 10);
    provider.clearTimeout(short);
    const interval = provider.setInterval(() => fired.push('tick'), 100);
    vi.advanceTimersByTime(250);
    provider.clearInterval(interval);
    vi.advanceTimersByTime(500);
    expect(fired).toEqual(['other', 'tick', 'tick']);
  });
});
