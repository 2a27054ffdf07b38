import { escapeHtml } from '../http/html.js';

/** Where the page's script and style are served (self-hosted, so the policy needs no inline code). */
export const SCRIPT_PATH = '/dashboard/app.js';
/** See {@link SCRIPT_PATH}. */
export const STYLE_PATH = '/dashboard/app.css';
/** The page's icon; without one the browser asks for `/favicon.ico`, which the emulator does not serve. */
export const ICON_PATH = '/dashboard/icon.svg';

/** A small icon: a waveform on the accent colour. */
export const DASHBOARD_ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="7" fill="#5865f2"/>
<path d="M7 16h3M12 10v12M16 6v20M20 11v10M24 14v4" stroke="#fff" stroke-width="2.5" stroke-linecap="round"/>
</svg>
`;

/**
 * The page's policy: its own script and style only, requests to its own origin only (the event stream and
 * the actions), no frames, no forms posting elsewhere, no plugins.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The application's credentials the page shows, as the developer portal's General Information page does. */
export interface DashboardApplication {
  /** The application id. */
  id: string;
  /** The Ed25519 public key, 64 hex digits: what a receiver of interactions and webhook events checks with. */
  publicKey: string;
  /** The client secret: behind a disclosure, so a shared screen does not show it. */
  clientSecret: string;
}

/**
 * The dashboard's page: an empty frame the script fills from the event stream, and the application's
 * credentials, which do not change while the emulator runs. `token` is the per-emulator secret the script
 * sends with every action; only a same-origin page can read it (the client secret likewise: the page is
 * served to loopback clients only, never cached, and never framed).
 */
export function dashboardPage(token: string, origin: string, application: DashboardApplication): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="dashboard-token" content="${escapeHtml(token)}">
<title>sdkpp emulator dashboard</title>
<link rel="icon" href="${ICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${STYLE_PATH}">
<script src="${SCRIPT_PATH}" defer></script>
</head>
<body>
<header>
  <h1>sdkpp emulator</h1>
  <span class="origin">${escapeHtml(origin)}</span>
  <span id="live" class="live off" role="status">connecting…</span>
</header>
<div id="notice" role="alert" hidden></div>
<main>
  <section id="application-section">
    <h2>Application</h2>
    <dl class="fields">
      <dt>Application id</dt><dd><code id="application-id">${escapeHtml(application.id)}</code></dd>
      <dt>Public key</dt><dd><code id="public-key">${escapeHtml(application.publicKey)}</code></dd>
      <dt>Client secret</dt>
      <dd><details><summary>show</summary><code id="client-secret">${escapeHtml(application.clientSecret)}</code></details></dd>
    </dl>
  </section>
  <section id="users-section">
    <h2>Users</h2>
    <form id="create-user" autocomplete="off">
      <input name="username" placeholder="username (optional)" maxlength="32" aria-label="username">
      <input name="globalName" placeholder="display name (optional)" maxlength="32" aria-label="display name">
      <button type="submit" id="create-user-button">Create user</button>
    </form>
    <table id="users"><thead><tr>
      <th>User</th><th>Status</th><th>Activity</th><th>Relationships</th><th>Sessions</th><th>Actions</th>
    </tr></thead><tbody></tbody></table>
  </section>
  <section id="lobbies-section">
    <h2>Lobbies</h2>
    <div id="lobbies" class="cards"><p class="empty">No lobbies.</p></div>
  </section>
  <section id="calls-section">
    <h2>Voice calls</h2>
    <form id="join-voice" class="card" autocomplete="off">
      <h3>Put a user in a voice channel, with audio</h3>
      <select name="user" aria-label="who joins"></select>
      <select name="channel" aria-label="which voice channel"></select>
      <input name="play" placeholder="WAV file to speak (on the emulator's machine)" aria-label="play">
      <input name="record" placeholder="WAV file to record into" aria-label="record">
      <button type="submit">Join</button>
      <button type="button" data-action="leave-voice">Leave</button>
    </form>
    <div id="calls" class="cards"><p class="empty">No calls.</p></div>
  </section>
  <section id="bot-section">
    <h2>Bot</h2>
    <div id="bot-guilds" class="cards"><p class="empty">No guilds.</p></div>
    <h3>Commands</h3>
    <div id="commands" class="cards"><p class="empty">No commands registered.</p></div>
    <h3>Interactions</h3>
    <table id="interactions"><thead><tr>
      <th>Interaction</th><th>User</th><th>Delivery</th><th>Response</th>
    </tr></thead><tbody></tbody></table>
    <h3>Webhook event deliveries</h3>
    <table id="deliveries"><thead><tr>
      <th>#</th><th>Event</th><th>State</th><th>Attempts</th><th>Last answer</th>
    </tr></thead><tbody></tbody></table>
  </section>
  <section id="activity-section">
    <h2>Activity</h2>
    <p id="activity-proxy" class="muted"></p>
    <form id="launch-activity" class="card" autocomplete="off">
      <h3>Launch the Activity</h3>
      <select name="user" aria-label="launch for"></select>
      <select name="channel" aria-label="launch in"></select>
      <button type="submit">Launch</button>
    </form>
    <ul id="launches"></ul>
    <table id="activity-instances"><thead><tr>
      <th>Instance</th><th>Channel</th><th>Players</th><th>Console lines</th><th>Layout</th>
    </tr></thead><tbody></tbody></table>
  </section>
  <section id="desktop-client-section">
    <h2>Desktop client</h2>
    <h3>Notifications</h3>
    <ul id="desktop-notifications"></ul>
    <h3>Opened for games</h3>
    <ul id="desktop-opened"></ul>
  </section>
  <section id="sessions-section">
    <h2>Gateway sessions</h2>
    <table id="sessions"><thead><tr>
      <th>Session</th><th>User</th><th>Seq</th><th>Socket</th>
    </tr></thead><tbody></tbody></table>
  </section>
  <section id="log-section">
    <h2>Requests and events</h2>
    <ol id="log"></ol>
  </section>
</main>
</body>
</html>
`;
}
