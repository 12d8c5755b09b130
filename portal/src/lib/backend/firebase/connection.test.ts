import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserConnection } from './index.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the Firebase adapter's connection capability", () => {
  it("reports the browser's online/offline state and its changes", () => {
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const connection = browserConnection();
    const states: string[] = [];
    const stop = connection.subscribe((state) => states.push(state));
    expect(states).toEqual(['online']);
    onLine.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    expect(connection.state).toBe('offline');
    onLine.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(states).toEqual(['online', 'offline', 'online']);
    stop();
    window.dispatchEvent(new Event('offline'));
    expect(states).toHaveLength(3);
  });
});
