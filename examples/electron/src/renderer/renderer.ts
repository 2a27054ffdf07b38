/**
 * The window's UI: plain DOM, no framework, no Node, no Electron. All it can do is call `window.sdkpp`
 * (exposed by the preload) and listen to its events.
 */
import type {
  AudioDevicesView,
  BridgeEvent,
  BridgeResult,
  FriendView,
  LobbyView,
  MessageView,
  SdkppApi,
  SessionView,
} from '../shared/api.js';
import { byId, element, setFormEnabled } from './dom.js';

declare global {
  interface Window {
    readonly sdkpp: SdkppApi;
  }
}

const api = window.sdkpp;

const ui = {
  status: byId('status', HTMLSpanElement),
  user: byId('user', HTMLSpanElement),
  engine: byId('engine', HTMLSpanElement),
  signIn: byId('sign-in', HTMLButtonElement),
  signOut: byId('sign-out', HTMLButtonElement),
  addFriend: byId('add-friend', HTMLFormElement),
  addFriendName: byId('add-friend-name', HTMLInputElement),
  friends: byId('friends', HTMLUListElement),
  dmTitle: byId('dm-title', HTMLHeadingElement),
  dmMessages: byId('dm-messages', HTMLOListElement),
  dmForm: byId('dm-form', HTMLFormElement),
  dmInput: byId('dm-input', HTMLInputElement),
  lobbyJoin: byId('lobby-join', HTMLFormElement),
  lobbySecret: byId('lobby-secret', HTMLInputElement),
  lobbyLeave: byId('lobby-leave', HTMLButtonElement),
  voiceToggle: byId('voice-toggle', HTMLButtonElement),
  voiceInput: byId('voice-input', HTMLSelectElement),
  voiceOutput: byId('voice-output', HTMLSelectElement),
  lobbyMembers: byId('lobby-members', HTMLUListElement),
  lobbyMessages: byId('lobby-messages', HTMLOListElement),
  lobbyForm: byId('lobby-form', HTMLFormElement),
  lobbyInput: byId('lobby-input', HTMLInputElement),
  error: byId('error', HTMLElement),
};

const state = {
  session: undefined as SessionView | undefined,
  friends: [] as FriendView[],
  selected: undefined as string | undefined,
  conversations: new Map<string, MessageView[]>(),
  lobby: undefined as LobbyView | undefined,
  lobbyMessages: [] as MessageView[],
  audio: undefined as AudioDevicesView | undefined,
};

/** The microphone choice that keeps the page's own (getUserMedia) rather than one the main process opens. */
const PAGE_MICROPHONE = 'page';

/** The running microphone in a lobby's voice call: its stream and the audio graph that taps it. */
let microphone: { stream: MediaStream; context: AudioContext; lobbyId: string } | undefined;
/** A voice call whose devices the main process owns. */
let systemVoice: { lobbyId: string } | undefined;

/** The value of a call, or undefined after showing its error. */
function unwrap<T>(result: BridgeResult<T>): T | undefined {
  if (result.ok) {
    ui.error.textContent = '';
    return result.value;
  }
  ui.error.textContent = `${result.error.code}: ${result.error.message}`;
  return undefined;
}

function signedIn(): boolean {
  return state.session?.user != null && state.session.status !== 'Disconnected';
}

function renderSession(): void {
  const session = state.session;
  if (!session) return;
  ui.status.textContent = session.status;
  ui.user.textContent = session.user
    ? `${session.user.displayName} (@${session.user.username})`
    : 'not signed in';
  const { engine } = session;
  ui.engine.textContent =
    `voice engine: ${engine.engine} ${engine.version}, ${engine.crypto}` +
    (engine.fallbackReason ? ` — JS fallback: ${engine.fallbackReason}` : '');
  ui.signIn.hidden = signedIn();
  ui.signOut.hidden = !signedIn();
}

function renderFriends(): void {
  ui.friends.replaceChildren(
    ...state.friends.map((friend) => {
      const row = element('li', '', friend.id === state.selected ? 'selected' : '');
      row.append(element('span', '', `presence ${friend.presence}`), element('span', friend.displayName));
      if (friend.relation === 'incoming') {
        const accept = element('button', 'Accept');
        accept.type = 'button';
        accept.addEventListener('click', (event) => {
          event.stopPropagation();
          void api.acceptFriendRequest(friend.id).then(unwrap);
        });
        row.append(' ', accept);
      } else if (friend.relation === 'outgoing') {
        row.append(element('span', ' (request sent)', 'muted'));
      }
      if (friend.activity) row.append(element('div', friend.activity, 'activity'));
      row.addEventListener('click', () => {
        if (friend.relation === 'friend') void selectFriend(friend.id);
      });
      return row;
    }),
  );
}

function renderMessages(list: HTMLOListElement, messages: readonly MessageView[]): void {
  list.replaceChildren(
    ...messages.map((message) => {
      const row = element('li');
      row.append(element('span', message.authorName, 'author'), element('span', message.content));
      row.title = new Date(message.sentAt).toLocaleString();
      return row;
    }),
  );
  list.scrollTop = list.scrollHeight;
}

function renderDirectMessages(): void {
  const friend = state.friends.find((f) => f.id === state.selected);
  ui.dmTitle.textContent = friend ? `Direct messages with ${friend.displayName}` : 'Direct messages';
  renderMessages(ui.dmMessages, state.selected ? (state.conversations.get(state.selected) ?? []) : []);
  setFormEnabled(ui.dmForm, friend !== undefined, friend ? `message ${friend.displayName}` : 'pick a friend');
}

function renderLobby(): void {
  const lobby = state.lobby;
  ui.lobbyLeave.hidden = !lobby;
  ui.voiceToggle.hidden = !lobby;
  ui.voiceToggle.textContent = microphone || systemVoice ? 'Leave voice' : 'Join voice';
  ui.voiceInput.hidden = !lobby;
  ui.voiceOutput.hidden = !lobby;
  if (!lobby && microphone) void stopMicrophone();
  if (!lobby && systemVoice) void stopSystemVoice();
  ui.lobbyMembers.replaceChildren(
    ...(lobby?.members ?? []).map((m) => element('li', `${m.displayName}${m.connected ? '' : ' (away)'}`)),
  );
  renderMessages(ui.lobbyMessages, state.lobbyMessages);
  setFormEnabled(ui.lobbyForm, lobby !== undefined, lobby ? 'message the lobby' : 'join a lobby first');
}

/** Adds a message once (it arrives both as a call's answer and as an event). */
function addMessage(list: MessageView[], message: MessageView): MessageView[] {
  return list.some((m) => m.id === message.id) ? list : [...list, message];
}

function receive(message: MessageView): void {
  const where = message.conversation;
  if (where.kind === 'dm') {
    state.conversations.set(where.userId, addMessage(state.conversations.get(where.userId) ?? [], message));
    if (where.userId === state.selected) renderDirectMessages();
  } else if (where.lobbyId === state.lobby?.id) {
    state.lobbyMessages = addMessage(state.lobbyMessages, message);
    renderLobby();
  }
}

async function selectFriend(userId: string): Promise<void> {
  state.selected = userId;
  renderFriends();
  const history = unwrap(await api.getDirectMessages(userId));
  if (history) state.conversations.set(userId, history);
  renderDirectMessages();
}

async function loadFriends(): Promise<void> {
  const friends = unwrap(await api.getFriends());
  if (friends) state.friends = friends;
  renderFriends();
}

/** After sign-out nothing of the player's social state stays on screen. */
function forgetSession(): void {
  state.friends = [];
  state.selected = undefined;
  state.conversations.clear();
  state.lobby = undefined;
  state.lobbyMessages = [];
  renderFriends();
  renderDirectMessages();
  renderLobby();
}

function onEvent(event: BridgeEvent): void {
  switch (event.type) {
    case 'session': {
      const wasSignedIn = signedIn();
      state.session = event.session;
      renderSession();
      if (!wasSignedIn && event.session.status === 'Ready') void loadFriends();
      if (wasSignedIn && !signedIn()) forgetSession();
      break;
    }
    case 'friends':
      state.friends = event.friends;
      renderFriends();
      renderDirectMessages();
      break;
    case 'message':
      receive(event.message);
      break;
    case 'lobby':
      if (state.lobby?.id === event.lobby.id) {
        state.lobby = event.lobby;
        renderLobby();
      }
      break;
    case 'lobbyClosed':
      if (state.lobby?.id === event.lobbyId) {
        state.lobby = undefined;
        state.lobbyMessages = [];
        renderLobby();
      }
      break;
    case 'audioDevices':
      state.audio = event.devices;
      renderDevices();
      break;
  }
}

function onSubmit(form: HTMLFormElement, action: () => Promise<void>): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void action();
  });
}

ui.signIn.addEventListener('click', () => {
  ui.signIn.disabled = true;
  void api.signIn().then((result) => {
    ui.signIn.disabled = false;
    const session = unwrap(result);
    if (!session) return;
    state.session = session;
    renderSession();
    void loadFriends();
  });
});

ui.signOut.addEventListener('click', () => {
  void api.signOut().then((result) => {
    const session = unwrap(result);
    if (session) state.session = session;
    renderSession();
  });
});

onSubmit(ui.addFriend, async () => {
  if (unwrap(await api.sendFriendRequest(ui.addFriendName.value.trim())) !== undefined) {
    ui.addFriendName.value = '';
  }
});

onSubmit(ui.dmForm, async () => {
  if (!state.selected) return;
  const sent = unwrap(await api.sendMessage(state.selected, ui.dmInput.value));
  if (!sent) return;
  ui.dmInput.value = '';
  receive(sent);
});

onSubmit(ui.lobbyJoin, async () => {
  const lobby = unwrap(await api.joinLobby(ui.lobbySecret.value));
  if (!lobby) return;
  state.lobby = lobby;
  state.lobbyMessages = unwrap(await api.getLobbyMessages(lobby.id)) ?? [];
  renderLobby();
});

ui.lobbyLeave.addEventListener('click', () => {
  const lobby = state.lobby;
  if (!lobby) return;
  void api.leaveLobby(lobby.id).then((result) => {
    if (unwrap(result) === undefined) return;
    state.lobby = undefined;
    state.lobbyMessages = [];
    renderLobby();
  });
});

onSubmit(ui.lobbyForm, async () => {
  const lobby = state.lobby;
  if (!lobby) return;
  const sent = unwrap(await api.sendLobbyMessage(lobby.id, ui.lobbyInput.value));
  if (!sent) return;
  ui.lobbyInput.value = '';
  receive(sent);
});

// ── Voice: the renderer owns the microphone (getUserMedia, with the browser's echo cancellation, noise
// suppression and gain control) and streams it to the main process, whose SDK client sends it into the call.

async function startMicrophone(lobbyId: string): Promise<void> {
  if (unwrap(await api.joinVoice(lobbyId)) === undefined) return;
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
  });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // A script processor hands the samples to this page's thread, where the bridge is; 2048 samples is about
  // 43 ms at 48 kHz. (An AudioWorklet would need a module file of its own; this is one page.)
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
  const tap = context.createScriptProcessor(2048, 1, 1);
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
  tap.onaudioprocess = (event) => {
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
    const samples = event.inputBuffer.getChannelData(0).slice();
    void api.pushMicrophone(samples, context.sampleRate);
  };
  // The tap runs only while connected to the output; a silent gain keeps the microphone off the speakers.
  const mute = context.createGain();
  mute.gain.value = 0;
  source.connect(tap);
  tap.connect(mute);
  mute.connect(context.destination);
  microphone = { stream, context, lobbyId };
  renderLobby();
}

async function stopMicrophone(): Promise<void> {
  const running = microphone;
  if (!running) return;
  microphone = undefined;
  for (const track of running.stream.getTracks()) track.stop();
  await running.context.close();
  unwrap(await api.leaveVoice(running.lobbyId));
  renderLobby();
}

// ── Voice, the other way: the main process owns the microphone and speakers (the system's, through the
// SDK's native engine); the page only picks them. Nothing of the audio crosses IPC.

/** The device menus: the page's own microphone first, then what the main process offers. */
function renderDevices(): void {
  const audio = state.audio;
  const keep = (select: HTMLSelectElement): string => select.value;
  const input = keep(ui.voiceInput) || PAGE_MICROPHONE;
  const output = keep(ui.voiceOutput) || audio?.output || 'null';
  const option = (value: string, label: string): HTMLOptionElement => {
    const item = element('option', label);
    item.value = value;
    return item;
  };
  ui.voiceInput.replaceChildren(
    option(PAGE_MICROPHONE, 'This page’s microphone'),
    ...(audio?.inputs ?? []).map((d) => option(d.id, d.id === 'null' ? 'No microphone' : d.name)),
  );
  ui.voiceOutput.replaceChildren(
    ...(audio?.outputs ?? [{ id: 'null', name: 'No speakers', isDefault: false }]).map((d) =>
      option(d.id, d.id === 'null' ? 'No speakers' : d.name),
    ),
  );
  // A device that went away leaves its menu on the first entry.
  ui.voiceInput.value = [...ui.voiceInput.options].some((o) => o.value === input) ? input : PAGE_MICROPHONE;
  ui.voiceOutput.value = [...ui.voiceOutput.options].some((o) => o.value === output) ? output : 'null';
}

async function loadDevices(): Promise<void> {
  state.audio = unwrap(await api.getAudioDevices());
  renderDevices();
}

async function startVoice(lobbyId: string): Promise<void> {
  const input = ui.voiceInput.value || PAGE_MICROPHONE;
  const page = input === PAGE_MICROPHONE;
  const chosen = unwrap(await api.setAudioDevices(page ? 'null' : input, ui.voiceOutput.value || 'null'));
  if (!chosen) return;
  state.audio = chosen;
  if (page) {
    await startMicrophone(lobbyId);
    return;
  }
  if (unwrap(await api.joinVoice(lobbyId)) === undefined) return;
  systemVoice = { lobbyId };
  renderLobby();
}

async function stopSystemVoice(): Promise<void> {
  const running = systemVoice;
  if (!running) return;
  systemVoice = undefined;
  unwrap(await api.leaveVoice(running.lobbyId));
  renderLobby();
}

for (const select of [ui.voiceInput, ui.voiceOutput]) {
  select.addEventListener('change', () => {
    // During a call on the main process's devices, a new choice applies at once (the call goes on).
    if (systemVoice && ui.voiceInput.value !== PAGE_MICROPHONE)
      void api.setAudioDevices(ui.voiceInput.value, ui.voiceOutput.value).then(unwrap);
  });
}

ui.voiceToggle.addEventListener('click', () => {
  const lobby = state.lobby;
  if (microphone) void stopMicrophone();
  else if (systemVoice) void stopSystemVoice();
  else if (lobby)
    startVoice(lobby.id).catch((error: unknown) => {
      ui.error.textContent = `microphone: ${String(error)}`;
    });
});

api.onEvent(onEvent);
void api.getSession().then((result) => {
  state.session = unwrap(result);
  renderSession();
  renderDirectMessages();
  renderLobby();
  void loadDevices();
  if (signedIn()) void loadFriends();
});
