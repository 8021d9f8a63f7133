/**
 * The portal: one page per task, addressed by the URL hash (#/keys, #/screenings/42 …) so the
 * service serves a single static index.html and the back button works.
 */
import './styles.css';
import { api, setToken, setUnauthenticatedHandler, token } from './api';
import { clear, h } from './dom';
import { renderSignIn } from './pages/signin';
import { renderOverview } from './pages/overview';
import { renderQueue } from './pages/queue';
import { renderSources } from './pages/sources';
import { renderKeys } from './pages/keys';
import { renderWebhooks } from './pages/webhooks';
import { renderNewScreening } from './pages/new-screening';
import { renderReport } from './pages/report';
import { renderHistory } from './pages/history';
import { renderPersonCheckForm, renderPersonCheck } from './pages/person-check';
import { renderSubjectCheck } from './pages/subject-check';
import { renderWatchlist, renderWatchlists } from './pages/watchlists';
import { session, loadSession, resetSession } from './session';
import { navigate, type Cleanup, type PageContext } from './router';

type Page = (ctx: PageContext) => Promise<Cleanup> | Cleanup;

interface Route {
  pattern: RegExp;
  names: string[];
  page: Page;
  title: string;
  public?: boolean;
}

const routes: Route[] = [
  { pattern: /^\/signin$/, names: [], page: renderSignIn, title: 'Sign in', public: true },
  { pattern: /^\/$/, names: [], page: renderQueue, title: 'Work queue' },
  { pattern: /^\/account$/, names: [], page: renderOverview, title: 'Account' },
  { pattern: /^\/sources$/, names: [], page: renderSources, title: 'Sources' },
  { pattern: /^\/keys$/, names: [], page: renderKeys, title: 'API keys' },
  { pattern: /^\/webhooks$/, names: [], page: renderWebhooks, title: 'Webhooks' },
  { pattern: /^\/screen$/, names: [], page: renderNewScreening, title: 'New screening' },
  { pattern: /^\/screenings\/([^/]+)$/, names: ['id'], page: renderReport, title: 'Screening report' },
  { pattern: /^\/history$/, names: [], page: renderHistory, title: 'Screenings and checks' },
  { pattern: /^\/subject-checks\/([^/]+)$/, names: ['id'], page: renderSubjectCheck, title: 'Subject check' },
  { pattern: /^\/person-check$/, names: [], page: renderPersonCheckForm, title: 'Person check' },
  { pattern: /^\/person-checks\/([^/]+)$/, names: ['id'], page: renderPersonCheck, title: 'Person check result' },
  { pattern: /^\/watchlists$/, names: [], page: renderWatchlists, title: 'Internal lists' },
  { pattern: /^\/watchlists\/([^/]+)$/, names: ['id'], page: renderWatchlist, title: 'Internal list' },
];

/** A case opened from the work queue belongs to the queue (`?from=queue`), any other to History. */
const fromQueue = (query: URLSearchParams) => query.get('from') === 'queue';

const navItems: { href: string; label: string; match: RegExp; unless?: (query: URLSearchParams) => boolean; also?: (path: string, query: URLSearchParams) => boolean; feature?: 'person_checks' }[] = [
  { href: '#/', label: 'Work queue', match: /^\/$/, also: (path, query) => path.startsWith('/screenings/') && fromQueue(query) },
  { href: '#/keys', label: 'API keys', match: /^\/keys/ },
  { href: '#/webhooks', label: 'Webhooks', match: /^\/webhooks/ },
  { href: '#/screen', label: 'New screening', match: /^\/screen$/ },
  { href: '#/history', label: 'History', match: /^\/(history|screenings|subject-checks)/, unless: fromQueue },
  { href: '#/person-check', label: 'Person check', match: /^\/person-check/, feature: 'person_checks' },
  { href: '#/watchlists', label: 'Internal lists', match: /^\/watchlists/ },
  { href: '#/sources', label: 'Sources', match: /^\/sources$/ },
  { href: '#/account', label: 'Account', match: /^\/account$/ },
];

let cleanup: Cleanup;

function parseHash(): { path: string; query: URLSearchParams } {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, qs] = raw.split('?');
  return { path: path || '/', query: new URLSearchParams(qs ?? '') };
}


function isCurrent(item: (typeof navItems)[number], path: string, query: URLSearchParams): boolean {
  return (item.match.test(path) && !item.unless?.(query)) || Boolean(item.also?.(path, query));
}

function renderChrome(path: string, query: URLSearchParams): void {
  const nav = document.getElementById('nav')!;
  const sessionBox = document.getElementById('session')!;
  clear(nav);
  clear(sessionBox);
  if (!session.overview) return;
  const features = session.overview.features ?? {};
  nav.appendChild(
    h(
      'ul',
      null,
      navItems
        .filter((item) => !item.feature || features[item.feature])
        .map((item) =>
          h(
            'li',
            null,
            h(
              'a',
              {
                href: item.href,
                'aria-current': isCurrent(item, path, query) ? 'page' : false,
                // The menu item of the page already open opens it afresh (an empty new-screening form,
                // not the last subject's), as following a link is expected to.
                onclick: (e: Event) => {
                  if (location.hash === item.href || (item.href === '#/' && location.hash === '')) {
                    e.preventDefault();
                    navigate(item.href);
                  }
                },
              },
              item.label,
            ),
          ),
        ),
    ),
  );
  const account = session.overview.account;
  sessionBox.appendChild(
    h(
      'div',
      { class: 'session-box' },
      h('span', { class: 'session-account' }, account.name ?? `Account ${account.id}`, ' · ', h('span', { class: 'plan' }, account.plan)),
      h(
        'button',
        {
          type: 'button',
          class: 'button link',
          onclick: async () => {
            try {
              await api('DELETE', '/api/session');
            } finally {
              setToken(null);
              resetSession();
              navigate('#/signin');
            }
          },
        },
        'Sign out',
      ),
    ),
  );
}

async function render(): Promise<void> {
  if (typeof cleanup === 'function') cleanup();
  cleanup = undefined;
  const { path, query } = parseHash();
  const route = routes.find((r) => r.pattern.test(path));
  const main = document.getElementById('main')!;
  if (!route) {
    clear(main);
    main.appendChild(h('section', null, h('h1', null, 'Page not found'), h('p', null, h('a', { href: '#/' }, 'Back to the work queue'))));
    return;
  }
  if (!route.public && !session.overview) {
    if (!token()) {
      // The HttpOnly cookie may still hold a session: ask whether it does (an answer, never a 401
      // in the console of someone who has not signed in yet), then load it.
      const signedIn = await api<{ signed_in: boolean }>('GET', '/api/portal/session').then(({ data }) => data.signed_in, () => false);
      const ok = signedIn && (await loadSession().then(() => true, () => false));
      if (!ok) return navigate('#/signin');
    } else {
      await loadSession().catch(() => undefined);
      if (!session.overview) return navigate('#/signin');
    }
  }
  document.title = `${route.title} · Compliance screening portal`;
  renderChrome(path, query);
  const match = route.pattern.exec(path)!;
  const params: Record<string, string> = {};
  route.names.forEach((name, i) => (params[name] = decodeURIComponent(match[i + 1]!)));
  clear(main);
  try {
    cleanup = await route.page({ main, params, query });
  } catch (error) {
    main.appendChild(h('div', { class: 'alert error', role: 'alert' }, (error as Error).message));
  }
  // First page on screen and usable: measured by the end-to-end test (target < 1 s).
  if (!performance.getEntriesByName('portal-interactive').length) performance.mark('portal-interactive');
  // Move focus to the page for keyboard and screen-reader users (not on first load).
  if (document.activeElement === document.body || document.activeElement?.closest('nav,#session')) main.focus({ preventScroll: false });
}

setUnauthenticatedHandler(() => {
  resetSession();
  if (!location.hash.startsWith('#/signin')) navigate('#/signin');
});
window.addEventListener('hashchange', () => void render());
void render();
