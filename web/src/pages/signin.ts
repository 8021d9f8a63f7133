import { api, ApiFailure, setToken } from '../api';
import { field, h } from '../dom';
import { navigate, type PageContext } from '../router';
import { loadSession, resetSession } from '../session';

export function renderSignIn({ main }: PageContext): void {
  resetSession();
  document.getElementById('nav')?.replaceChildren();
  document.getElementById('session')?.replaceChildren();
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const error = h('div', { class: 'alert error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button primary' }, 'Sign in');
  const form = h(
    'form',
    {
      class: 'card narrow',
      novalidate: false,
      onsubmit: async (event: Event) => {
        event.preventDefault();
        error.hidden = true;
        submit.disabled = true;
        try {
          const { data } = await api<{ token: string }>('POST', '/api/session', { email: email.value.trim(), password: password.value });
          setToken(data.token);
          await loadSession();
          navigate('#/');
        } catch (e) {
          error.textContent = e instanceof ApiFailure && e.status === 401 ? 'The e-mail or password is not right.' : (e as Error).message;
          error.hidden = false;
          password.focus();
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h1', null, 'Sign in'),
    h('p', { class: 'muted' }, 'For account owners and compliance analysts.'),
    error,
    field('E-mail', email),
    field('Password', password),
    submit,
  );
  main.appendChild(form);
  email.focus();
}
