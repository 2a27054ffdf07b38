'use strict';
/**
 * The dashboard's browser script, served at `/dashboard/app.js`: it follows `/dashboard/events` and draws
 * each state into the page with DOM calls and `textContent` only (names and messages are user input), and
 * posts the tester's actions with the page's token.
 *
 * A classic script (no imports or exports: the page loads it with `<script src defer>`), type-checked against
 * the DOM by ./tsconfig.json. The build turns it into dist/dashboard/app.js with TypeScript's own emitter,
 * which only removes the types (scripts/dashboard-script.mjs); the emulator serves that file (../appScript.ts).
 */

type DashboardState = import('../pageData.js').DashboardState;
type DashboardActivity = import('../pageData.js').DashboardActivity;
type DashboardUser = import('../pageData.js').DashboardUser;
type LogEntry = import('../../log.js').LogEntry;

/** What an action answers: an error's message, or what the action made or did. */
interface ActionReply {
  message?: string;
  delivery?: string;
  id?: string;
  username?: string;
  dropped?: number;
  url?: string;
  instanceId?: string;
  sessionId?: string;
  left?: string;
  sent?: number;
}

type Child = Node | string | null | undefined;

(function () {
  /** An element the page must have; without it the page is not the dashboard's. */
  function required<T>(value: T | null, what: string): T {
    if (value === null) throw new Error(`the dashboard page has no ${what}`);
    return value;
  }

  const token = required(
    document.querySelector('meta[name="dashboard-token"]'),
    'token meta element',
  ).getAttribute('content');
  let state: DashboardState | null = null;
  const drawn: Partial<Record<string, string>> = {};
  const LOG_LIMIT = 300;

  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    props?: Record<string, string> | null,
    ...children: Child[]
  ): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (props) {
      for (const key in props) {
        const value = props[key] ?? '';
        if (key === 'text') node.textContent = value;
        else if (key === 'cls') node.className = value;
        else node.setAttribute(key, value);
      }
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function byId(id: string): HTMLElement {
    return required(document.getElementById(id), `#${id}`);
  }

  function userById(id: string): DashboardUser | null {
    if (!state) return null;
    for (const user of state.users) if (user.id === id) return user;
    return null;
  }

  function nameOf(id: string): string {
    const user = userById(id);
    return user ? user.username : id;
  }

  function names(ids: string[]): string {
    return ids.map(nameOf).join(', ');
  }

  function clear(node: Node): void {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function notice(text: string, isError?: boolean): void {
    const box = byId('notice');
    box.textContent = text;
    box.className = isError ? 'error' : '';
    box.hidden = false;
  }

  function act(path: string, body: Record<string, string> | null, done?: (reply: ActionReply) => void): void {
    fetch('/dashboard/api/' + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Dashboard-Token': token ?? '' },
      body: JSON.stringify(body ?? {}),
    })
      .then(function (res) {
        return res.json().then(function (json: ActionReply | null) {
          if (!res.ok) notice(json?.message || `HTTP ${res.status}`, true);
          else if (done && json) done(json);
        });
      })
      .catch(function (error: unknown) {
        notice(`Request failed: ${String(error)}`, true);
      });
  }

  function button(
    label: string,
    action: string,
    attrs: Record<string, string>,
    danger?: boolean,
  ): HTMLElement {
    const props: Record<string, string> = { type: 'button', 'data-action': action, text: label };
    for (const key in attrs) props[key] = attrs[key] ?? '';
    if (danger) props.cls = 'danger';
    return el('button', props);
  }

  function activityText(a: DashboardActivity): string {
    const parts: string[] = [];
    if (a.name) parts.push(a.name);
    if (a.details) parts.push(a.details);
    if (a.state) parts.push(a.state);
    if (a.party && a.party.size !== null) parts.push(`party ${a.party.size}/${String(a.party.max)}`);
    return parts.join(' · ');
  }

  function relLine(label: string, ids: string[]): HTMLElement | null {
    return ids.length
      ? el('div', { cls: 'rel-' + label.replace(/ /g, '-') }, label + ': ' + names(ids))
      : null;
  }

  function drawUsers(now: DashboardState): void {
    const body = required(document.querySelector('#users tbody'), '#users tbody');
    clear(body);
    now.users.forEach(function (u) {
      const who = el(
        'td',
        null,
        el('strong', { text: u.globalName || u.username }),
        ' ',
        el('span', { text: '@' + u.username }),
      );
      if (u.provisional) who.appendChild(el('span', { cls: 'tag', text: 'provisional' }));
      if (u.banned) who.appendChild(el('span', { cls: 'tag bad', text: 'banned' }));
      who.appendChild(el('span', { cls: 'id', text: u.id }));
      const status = el(
        'td',
        null,
        el(
          'span',
          { cls: 'status status-' + u.status, 'data-status': u.status },
          el('span', { cls: 'dot' }),
          u.status,
        ),
      );
      const activity = el('td', { cls: 'activity' });
      u.activities.forEach(function (a) {
        activity.appendChild(el('div', { text: activityText(a) }));
      });
      const rels = el(
        'td',
        { cls: 'rels' },
        relLine('friends', u.friends),
        relLine('incoming', u.incoming),
        relLine('outgoing', u.outgoing),
        relLine('blocked', u.blocked),
        relLine('game friends', u.gameFriends),
        relLine('game incoming', u.gameIncoming),
        relLine('game outgoing', u.gameOutgoing),
      );
      const actions = el(
        'td',
        null,
        button('Revoke tokens', 'revoke', { 'data-user': u.id }),
        button('Drop gateway', 'drop', { 'data-user': u.id }),
        u.banned ? null : button('Ban', 'ban', { 'data-user': u.id }, true),
      );
      body.appendChild(
        el(
          'tr',
          { 'data-user-id': u.id },
          who,
          status,
          activity,
          rels,
          el('td', { cls: 'sessions', text: String(u.connectedSessions) }),
          actions,
        ),
      );
    });
  }

  function metadataText(metadata: Record<string, string>): string {
    const keys = Object.keys(metadata);
    return keys.length
      ? keys
          .map(function (k) {
            return k + '=' + (metadata[k] ?? '');
          })
          .join(', ')
      : '';
  }

  function drawLobbies(now: DashboardState): void {
    const box = byId('lobbies');
    clear(box);
    if (now.lobbies.length === 0) box.appendChild(el('p', { cls: 'empty', text: 'No lobbies.' }));
    now.lobbies.forEach(function (lobby) {
      const members = el('ul', { cls: 'members' });
      lobby.members.forEach(function (m) {
        members.appendChild(
          el(
            'li',
            { 'data-member-id': m.id },
            el('span', {
              cls: m.connected ? 'dot on' : 'dot',
              title: m.connected ? 'connected' : 'not connected',
            }),
            ' ',
            nameOf(m.id),
            m.additionalName ? el('span', { cls: 'tag', text: 'as ' + m.additionalName }) : null,
            metadataText(m.metadata) ? el('code', { text: ' ' + metadataText(m.metadata) }) : null,
          ),
        );
      });
      const messages = el('ol', { cls: 'messages' });
      lobby.messages.forEach(function (msg) {
        messages.appendChild(
          el(
            'li',
            { 'data-message-id': msg.id },
            el('span', { cls: 'author', text: msg.additionalName || nameOf(msg.authorId) }),
            el('span', { cls: 'content', text: msg.content }),
          ),
        );
      });
      box.appendChild(
        el(
          'div',
          { cls: 'card lobby', 'data-lobby-id': lobby.id },
          el('h3', null, 'Lobby ', el('code', { text: lobby.id })),
          el('div', {
            cls: 'muted',
            text:
              'created by ' +
              lobby.createdBy +
              (metadataText(lobby.metadata) ? ' · ' + metadataText(lobby.metadata) : '') +
              (lobby.linkedChannelId ? ' · linked to ' + lobby.linkedChannelId : ''),
          }),
          el('div', { text: 'Members' }),
          members,
          el('div', { text: 'Recent messages' }),
          lobby.messages.length ? messages : el('p', { cls: 'empty', text: 'No messages.' }),
        ),
      );
    });
  }

  function drawCalls(now: DashboardState): void {
    const box = byId('calls');
    clear(box);
    if (now.calls.length === 0) box.appendChild(el('p', { cls: 'empty', text: 'No calls.' }));
    now.calls.forEach(function (call) {
      const dave = el(
        'dl',
        { cls: 'dave' },
        el('dt', { text: 'DAVE protocol' }),
        el('dd', {
          cls: 'dave-version',
          text: call.daveProtocolVersion === null ? '—' : `v${call.daveProtocolVersion}`,
        }),
        el('dt', { text: 'MLS epoch' }),
        el('dd', { cls: 'dave-epoch', text: call.daveEpoch === null ? '—' : call.daveEpoch }),
        el('dt', { text: 'Privacy code' }),
        el('dd', { cls: 'privacy-code', text: call.privacyCode ?? call.privacyCodeNote }),
        el('dt', { text: 'Packets' }),
        el('dd', { text: `${call.packetsIn} in, ${call.packetsForwarded} forwarded` }),
      );
      const rows = el('tbody');
      call.participants.forEach(function (p) {
        const speaking = p.speaking !== 0;
        rows.appendChild(
          el(
            'tr',
            { 'data-participant-id': p.userId },
            el('td', { text: nameOf(p.userId) }),
            el(
              'td',
              { cls: speaking ? 'speaking speaking-on' : 'speaking' },
              el('span', { cls: 'dot' }),
              speaking ? ' speaking' : ' silent',
            ),
            el('td', { cls: 'ssrc', text: p.ssrc === null ? '—' : String(p.ssrc) }),
            el('td', {
              text:
                (p.connected ? 'connected' : 'no socket') +
                (p.selfMute ? ', muted' : '') +
                (p.selfDeaf ? ', deafened' : ''),
            }),
            el('td', { text: `${p.packetsFromClient} / ${p.packetsToClient}` }),
            el(
              'td',
              null,
              button('Kick', 'kick', { 'data-user': p.userId, 'data-lobby': call.channelId }, true),
            ),
          ),
        );
      });
      const table = el(
        'table',
        null,
        el(
          'thead',
          null,
          el(
            'tr',
            null,
            el('th', { text: 'Participant' }),
            el('th', { text: 'Speaking' }),
            el('th', { text: 'SSRC' }),
            el('th', { text: 'Voice' }),
            el('th', { text: 'Packets in/out' }),
            el('th'),
          ),
        ),
        rows,
      );
      box.appendChild(
        el(
          'div',
          { cls: 'card call', 'data-call-id': call.channelId },
          el(
            'h3',
            null,
            call.guildId === null ? 'Call in lobby ' : 'Voice channel ',
            el('code', { text: call.channelId }),
          ),
          dave,
          table,
        ),
      );
    });
  }

  function drawSessions(now: DashboardState): void {
    const body = required(document.querySelector('#sessions tbody'), '#sessions tbody');
    clear(body);
    now.sessions.forEach(function (s) {
      body.appendChild(
        el(
          'tr',
          null,
          el('td', null, el('code', { text: s.id })),
          el('td', { text: nameOf(s.userId) }),
          el('td', { text: String(s.seq) }),
          el('td', { text: s.connected ? 'connected' : 'waiting for resume' }),
        ),
      );
    });
  }

  function drawDesktopClient(now: DashboardState): void {
    const notifications = required(
      document.querySelector('#desktop-notifications'),
      '#desktop-notifications',
    );
    clear(notifications);
    now.desktopClient.notifications.forEach(function (n) {
      const held = n.shown ? '' : ' (held back: a game shows chat)';
      notifications.appendChild(el('li', { text: `${nameOf(n.authorId)}: ${n.body}${held}` }));
    });
    const opened = required(document.querySelector('#desktop-opened'), '#desktop-opened');
    clear(opened);
    now.desktopClient.opened.forEach(function (o) {
      const what = o.kind === 'message' ? `message ${o.messageId ?? ''}` : 'Connected Games settings';
      opened.appendChild(el('li', { text: what }));
    });
  }

  const CHANNEL_TYPES: Record<number, string> = { 0: '#', 2: '🔊 ', 4: '▸ ' };
  const CALLBACKS: Record<number, string> = {
    1: 'pong',
    4: 'message',
    5: 'deferred message',
    6: 'deferred update',
    7: 'update',
    8: 'autocomplete',
    9: 'modal',
    10: 'premium required',
    12: 'launch activity',
  };

  function drawBotGuilds(now: DashboardState): void {
    const box = byId('bot-guilds');
    clear(box);
    if (now.bot.guilds.length === 0) box.appendChild(el('p', { cls: 'empty', text: 'No guilds.' }));
    now.bot.guilds.forEach(function (g) {
      const channels = el('ul', { cls: 'channels' });
      g.channels.forEach(function (c) {
        channels.appendChild(
          el(
            'li',
            { 'data-channel-id': c.id },
            (CHANNEL_TYPES[c.type] ?? '') + c.name,
            g.botIn && !c.botCanView ? el('span', { cls: 'tag', text: 'hidden from the bot' }) : null,
          ),
        );
      });
      box.appendChild(
        el(
          'div',
          { cls: 'card guild', 'data-guild-id': g.id },
          el('h3', { text: g.name }),
          el('div', {
            cls: 'muted bot-in',
            text: g.botIn ? 'the bot is in this guild' : 'the bot is not in this guild',
          }),
          channels,
        ),
      );
    });
  }

  /** Adds an option per user (`@name`, valued by id) to a select; returns it. */
  function addUserOptions(select: HTMLSelectElement, now: DashboardState): HTMLSelectElement {
    now.users.forEach(function (u) {
      select.appendChild(el('option', { value: u.id, text: '@' + u.username }));
    });
    return select;
  }

  /** The value of a form's input or select named `name`, or '' when it has none. */
  function formValue(formEl: HTMLFormElement, name: string): string {
    const input = formEl.elements.namedItem(name);
    return input instanceof HTMLInputElement || input instanceof HTMLSelectElement ? input.value : '';
  }

  function drawCommands(now: DashboardState): void {
    const box = byId('commands');
    clear(box);
    if (now.bot.commands.length === 0)
      box.appendChild(el('p', { cls: 'empty', text: 'No commands registered.' }));
    const textChannels: [string, string][] = [];
    now.bot.guilds.forEach(function (g) {
      g.channels.forEach(function (c) {
        if (c.type === 0) textChannels.push([c.id, g.name + ' #' + c.name]);
      });
    });
    now.bot.commands.forEach(function (c) {
      const users = addUserOptions(el('select', { name: 'user', 'aria-label': 'invoke as' }), now);
      const channels = el('select', { name: 'channel', 'aria-label': 'in channel' });
      textChannels.forEach(function ([id, label]) {
        if (
          c.guildId === null ||
          now.bot.guilds.some((g) => g.id === c.guildId && g.channels.some((ch) => ch.id === id))
        ) {
          channels.appendChild(el('option', { value: id, text: label }));
        }
      });
      channels.appendChild(el('option', { value: '', text: 'DM with the bot' }));
      const optionNames = c.options.map((o) => o.name + (o.required ? '*' : '')).join(', ');
      box.appendChild(
        el(
          'form',
          { cls: 'card command', 'data-command': c.name, autocomplete: 'off' },
          el('h3', null, c.type === 1 ? '/' + c.name : c.name),
          el('div', {
            cls: 'muted',
            text:
              (c.guildId === null ? 'global' : 'guild ' + c.guildId) +
              (c.description ? ' · ' + c.description : ''),
          }),
          users,
          channels,
          c.options.length > 0
            ? el('input', {
                name: 'options',
                placeholder: '{"option": value} — ' + optionNames,
                'aria-label': 'options',
              })
            : null,
          el('button', { type: 'submit', text: 'Invoke' }),
        ),
      );
    });
  }

  function drawBotActivity(now: DashboardState): void {
    const interactions = required(document.querySelector('#interactions tbody'), '#interactions tbody');
    clear(interactions);
    now.bot.interactions.forEach(function (i) {
      interactions.appendChild(
        el(
          'tr',
          { 'data-interaction-id': i.id },
          el('td', { text: i.name }),
          el('td', { text: nameOf(i.userId) }),
          el('td', { cls: 'delivery', text: i.delivery }),
          el('td', {
            cls: 'response',
            text:
              i.responseType === null
                ? 'waiting'
                : (CALLBACKS[i.responseType] ?? String(i.responseType)) + (i.modalOpen ? ' (open)' : ''),
          }),
        ),
      );
    });
    const deliveries = required(document.querySelector('#deliveries tbody'), '#deliveries tbody');
    clear(deliveries);
    now.bot.deliveries.forEach(function (d) {
      deliveries.appendChild(
        el(
          'tr',
          { 'data-delivery-id': String(d.id) },
          el('td', { text: String(d.id) }),
          el('td', { cls: 'event', text: d.eventType }),
          el('td', { cls: 'state', text: d.state }),
          el('td', { text: String(d.attempts) }),
          el('td', { text: d.status === null ? (d.error ?? '—') : 'HTTP ' + String(d.status) }),
        ),
      );
    });
  }

  /** The join form's users and the guilds' voice channels. */
  function drawJoinVoiceForm(now: DashboardState): void {
    const formEl = byId('join-voice');
    const users = required(
      formEl.querySelector<HTMLSelectElement>('select[name=user]'),
      "the join form's user select",
    );
    const channels = required(formEl.querySelector('select[name=channel]'), "the join form's channel select");
    const chosen = users.value;
    clear(users);
    addUserOptions(users, now);
    if (chosen !== '') users.value = chosen;
    clear(channels);
    now.bot.guilds.forEach(function (g) {
      g.channels.forEach(function (c) {
        if (c.type === 2) channels.appendChild(el('option', { value: c.id, text: g.name + ' 🔊 ' + c.name }));
      });
    });
  }

  /** The channels an Activity launches in: every guild channel but categories, then a private launch. */
  function drawLaunchForm(now: DashboardState): void {
    const formEl = byId('launch-activity');
    const users = required(
      formEl.querySelector<HTMLSelectElement>('select[name=user]'),
      "the launch form's user select",
    );
    const channels = required(
      formEl.querySelector('select[name=channel]'),
      "the launch form's channel select",
    );
    clear(users);
    addUserOptions(users, now);
    clear(channels);
    now.bot.guilds.forEach(function (g) {
      g.channels.forEach(function (c) {
        if (c.type === 0 || c.type === 2)
          channels.appendChild(
            el('option', { value: c.id, text: g.name + (c.type === 2 ? ' 🔊 ' : ' #') + c.name }),
          );
      });
    });
    channels.appendChild(el('option', { value: '', text: 'a private launch' }));
  }

  function drawActivity(now: DashboardState): void {
    const mappings = now.activity.mappings.map((m) => m.prefix + ' → ' + m.target).join(', ');
    byId('activity-proxy').textContent =
      'Proxy ' +
      now.activity.url +
      ' · URL mappings: ' +
      (mappings === '' ? 'none (set them to serve the game)' : mappings);
    const rows = required(document.querySelector('#activity-instances tbody'), '#activity-instances tbody');
    clear(rows);
    now.activity.instances.forEach(function (i) {
      rows.appendChild(
        el(
          'tr',
          { 'data-instance-id': i.id },
          el('td', { text: i.id }),
          el('td', { text: i.channelId === null ? 'private' : i.channelId }),
          el('td', {
            cls: 'players',
            text: i.participants.length === 0 ? 'nobody yet' : names(i.participants),
          }),
          el('td', { text: String(i.consoleLines) }),
          el(
            'td',
            null,
            layoutSelect('layoutMode', ['focused', 'pip', 'grid']),
            layoutSelect('orientation', ['landscape', 'portrait']),
          ),
        ),
      );
    });
  }

  /** A select of the players' client layout or orientation; a change sends the matching event to the frames. */
  function layoutSelect(name: string, values: string[]): HTMLElement {
    return el(
      'select',
      { name, 'data-action': 'layout', 'aria-label': name },
      el('option', { value: '', text: name === 'layoutMode' ? 'layout…' : 'orientation…' }),
      ...values.map((v) => el('option', { value: v, text: v })),
    );
  }

  /** Each part of the page, the state it draws from, and its painter. */
  const painters: [string, (now: DashboardState) => unknown, (now: DashboardState) => void][] = [
    ['users', (now) => now.users, drawUsers],
    ['lobbies', (now) => now.lobbies, drawLobbies],
    ['calls', (now) => now.calls, drawCalls],
    ['sessions', (now) => now.sessions, drawSessions],
    ['desktopClient', (now) => now.desktopClient, drawDesktopClient],
    ['botGuilds', (now) => now.bot.guilds, drawBotGuilds],
    // The command forms redraw only when commands or guilds change, so typing is not lost to other events.
    ['commands', (now) => [now.bot.commands, now.bot.guilds], drawCommands],
    ['botActivity', (now) => [now.bot.interactions, now.bot.deliveries], drawBotActivity],
    ['launchForm', (now) => now.bot.guilds, drawLaunchForm],
    ['joinVoiceForm', (now) => now.bot.guilds, drawJoinVoiceForm],
    ['activity', (now) => now.activity, drawActivity],
  ];

  function draw(now: DashboardState): void {
    // Names come from the users, so a change there redraws everything that shows them.
    const usersChanged = JSON.stringify(now.users) !== drawn.users;
    for (const [part, select, paint] of painters) {
      const json = JSON.stringify(select(now));
      if (usersChanged || json !== drawn[part]) {
        paint(now);
        drawn[part] = json;
      }
    }
  }

  function pad(n: number, width: number): string {
    return String(n).padStart(width, '0');
  }

  // Log lines name users by id (the server's log has no names); the page knows the names.
  function withNames(message: string): string {
    return message.replace(/\b\d{17,20}\b/g, function (id) {
      const user = userById(id);
      return user ? '@' + user.username : id;
    });
  }

  function appendLog(entry: LogEntry): void {
    const list = byId('log');
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    const t = new Date(entry.time);
    list.appendChild(
      el(
        'li',
        { 'data-area': entry.area },
        el('time', {
          text: `${pad(t.getHours(), 2)}:${pad(t.getMinutes(), 2)}:${pad(t.getSeconds(), 2)}.${pad(t.getMilliseconds(), 3)}`,
        }),
        el('span', { cls: 'area', text: '[' + entry.area + ']' }),
        el('span', { cls: 'message', text: withNames(entry.message) }),
      ),
    );
    while (list.children.length > LOG_LIMIT && list.firstChild) list.removeChild(list.firstChild);
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  document.addEventListener('click', function (event) {
    const target = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
    if (!target) return;
    const user = target.getAttribute('data-user') ?? '';
    const action = target.getAttribute('data-action');
    if (action === 'ban')
      act('users/' + encodeURIComponent(user) + '/ban', {}, function () {
        notice(nameOf(user) + ' banned');
      });
    else if (action === 'revoke')
      act('users/' + encodeURIComponent(user) + '/revoke-tokens', {}, function () {
        notice('Tokens of ' + nameOf(user) + ' revoked');
      });
    else if (action === 'drop')
      act('users/' + encodeURIComponent(user) + '/drop-gateway', {}, function (r) {
        notice(`${String(r.dropped)} gateway connection(s) of ${nameOf(user)} dropped`);
      });
    else if (action === 'kick')
      act(
        'calls/' + encodeURIComponent(target.getAttribute('data-lobby') ?? '') + '/kick',
        { userId: user },
        function () {
          notice(nameOf(user) + ' kicked from the call');
        },
      );
  });

  // A command form's submit invokes the command as the chosen user, in the chosen channel.
  byId('commands').addEventListener('submit', function (event) {
    event.preventDefault();
    const formEl = event.target instanceof HTMLFormElement ? event.target : null;
    if (!formEl) return;
    const value = (name: string): string => formValue(formEl, name);
    const command = formEl.getAttribute('data-command') ?? '';
    act(
      'commands/' + encodeURIComponent(command) + '/invoke',
      { user: value('user'), channel: value('channel'), options: value('options') },
      function (reply) {
        notice('/' + command + ' invoked (' + String(reply.delivery) + ')');
      },
    );
  });

  // The join form puts the chosen user in the chosen voice channel with audio; Leave takes them out.
  byId('join-voice').addEventListener('submit', function (event) {
    event.preventDefault();
    const formEl = event.target instanceof HTMLFormElement ? event.target : null;
    if (!formEl) return;
    const value = (name: string): string => formValue(formEl, name);
    act(
      'voice/join',
      { user: value('user'), channel: value('channel'), play: value('play'), record: value('record') },
      function (reply) {
        notice(String(reply.username) + ' joined the voice channel');
      },
    );
  });
  byId('join-voice').addEventListener('click', function (event) {
    const button = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
    if (button?.getAttribute('data-action') !== 'leave-voice') return;
    event.stopPropagation();
    const formEl = byId('join-voice');
    if (!(formEl instanceof HTMLFormElement)) return;
    act('voice/leave', { user: formValue(formEl, 'user') }, function (reply) {
      notice(String(reply.left) + ' left the voice channel');
    });
  });

  // The instance's layout control: the players' clients switch layout or orientation, and their frames hear it.
  byId('activity-instances').addEventListener('change', function (event) {
    const select = event.target instanceof HTMLSelectElement ? event.target : null;
    const row = select?.closest('tr[data-instance-id]');
    if (!select || !row || select.value === '') return;
    const instance = row.getAttribute('data-instance-id') ?? '';
    act('activity/layout', { instance, [select.name]: select.value }, function (reply) {
      notice(select.name + ' ' + select.value + ': ' + String(reply.sent) + ' events sent');
    });
  });

  // The launch form's submit launches for the chosen player; the link to their window shows here only.
  byId('launch-activity').addEventListener('submit', function (event) {
    event.preventDefault();
    const formEl = event.target instanceof HTMLFormElement ? event.target : null;
    if (!formEl) return;
    const value = (name: string): string => formValue(formEl, name);
    act('activity/launch', { user: value('user'), channel: value('channel') }, function (reply) {
      const link = el('a', {
        href: String(reply.url),
        target: '_blank',
        rel: 'noopener',
        text: 'Open the window of ' + String(reply.username),
      });
      byId('launches').appendChild(
        el('li', null, link, el('span', { cls: 'muted', text: ' · ' + String(reply.instanceId) })),
      );
      notice('Launched for ' + String(reply.username));
    });
  });

  const createUser = byId('create-user');
  if (!(createUser instanceof HTMLFormElement))
    throw new Error('the dashboard page has no #create-user form');
  const form: HTMLFormElement = createUser;
  /** The trimmed value of one of the form's inputs. */
  function field(name: string): string {
    const input = form.elements.namedItem(name);
    return input instanceof HTMLInputElement ? input.value.trim() : '';
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    act('users', { username: field('username'), globalName: field('globalName') }, function (user) {
      form.reset();
      notice(`Created ${String(user.username)} (${String(user.id)})`);
    });
  });

  /** The data of an event-stream message (always text). */
  function dataOf(event: Event): string {
    return event instanceof MessageEvent && typeof event.data === 'string' ? event.data : 'null';
  }

  const live = byId('live');
  const events = new EventSource('/dashboard/events');
  events.addEventListener('open', function () {
    // The stream starts with the backlog again after a reconnect.
    clear(byId('log'));
    live.textContent = 'live';
    live.className = 'live on';
  });
  events.addEventListener('error', function () {
    live.textContent = 'reconnecting…';
    live.className = 'live off';
  });
  events.addEventListener('state', function (event) {
    state = JSON.parse(dataOf(event)) as DashboardState;
    draw(state);
  });
  events.addEventListener('log', function (event) {
    appendLog(JSON.parse(dataOf(event)) as LogEntry);
  });
})();
