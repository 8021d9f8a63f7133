export type Cleanup = (() => void) | void;

export interface PageContext {
  main: HTMLElement;
  params: Record<string, string>;
  query: URLSearchParams;
}

/** Goes to a page; re-renders when already there (e.g. after a form changes the query). */
export function navigate(hash: string): void {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}
