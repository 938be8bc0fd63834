// The host screen of a live game (templates/live-host.mustache), meant for a projector: it follows
// the game over the socket and sends the host's commands. Needs live-common.js loaded before it.
//
// Ids (for people and for browser tests):
//   #live-host           root; data-game (game id), data-pin, data-join-url, data-join-path,
//                        data-screen (the screen shown), data-phase (the game's phase)
//   #host-lobby          lobby: #host-pin, #qr, #join-address, #join-url, #player-count (data-count),
//                        #player-list (li.chip[data-player=id], each with a button.kick), #player-more
//   #host-question       #host-question-number, #host-question-text, #host-question-image,
//                        #countdown / #countdown-number, #answered-count,
//                        #host-answers (li.answer-tile[data-choice=id | "true" | "false"])
//   #reveal              #correct-answer, #reveal-explanation, #reveal-answered,
//                        #distribution (li.dist-row[data-choice], .is-correct; .dist-count)
//   #leaderboard         #leaderboard-list (li[data-player] .rank .name .score .move), #team-scores
//   #ended               #podium (li[data-player], .place-1…3), #standings (li[data-player]),
//                        #results-link, #games-link
//   #host-controls       (hidden once the game ended) #lock-button (aria-pressed), #lock-state, #start-button, #close-button,
//                        #next-button (also Space and →), #end-button, #fullscreen-button
//   messages             #host-message (errors, role=alert), #host-away, #host-connection
(function () {
  'use strict';
  const live = window.QuizboxLive;
  const root = document.getElementById('live-host');
  if (!live || !root) return;
  const $ = (id) => document.getElementById(id);
  const el = live.el;
  const t = live.t;
  const fill = live.fill;

  // The lobby shows this many players as chips and counts the rest: a chip per player would make
  // a lobby of thousands slow on the projector's machine.
  const MAX_CHIPS = 200;

  const state = {
    gameId: Number(root.dataset.game),
    phase: 'lobby',
    soundMuted: false,
    players: [],
    count: 0,
    locked: false,
    teams: 0,
    autoAdvance: false,
    questionCount: 0,
    question: null, // the last `question` message
    finalTeams: null,
    awaiting: null, // the command sent and not yet answered (its button stays disabled)
    refused: false,
    ended: false,
    lostAt: null
  };

  const socket = new live.LiveSocket({
    hello: () => ({ type: 'host', game: state.gameId }),
    shouldReconnect: () => !state.refused && !state.ended,
    onMessage: receive,
    onState: connection
  });

  // ---- Messages from the server

  function receive(message, at) {
    live.clock.note(message, at);
    switch (message.type) {
      case 'hosting': hosting(message); break;
      case 'players': players(message); break;
      case 'question': question(message, at); break;
      case 'progress': progress(message); break;
      case 'cloud': cloud(message); break;
      case 'reveal': reveal(message); break;
      case 'leaderboard': leaderboard(message); break;
      case 'ended': ended(message); break;
      case 'host': hostPresence(message, at); break;
      case 'error': failed(message); break;
      default: break; // `kicked`, `joined`, `ack`, `result` are for players
    }
  }

  function hosting(message) {
    socket.accepted();
    const game = message.game || {};
    state.lostAt = null;
    $('host-away').hidden = true;
    if (game.pin) { $('host-pin').textContent = game.pin; $('host-pin-small').textContent = game.pin; }
    if (game.title) $('host-title').textContent = game.title;
    if (game.joinURL) showJoinAddress(game.joinURL);
    state.questionCount = game.questionCount || state.questionCount;
    const settings = game.settings || {};
    state.teams = Number(settings.teams) || 0;
    state.autoAdvance = Boolean(settings.autoAdvance);
    players({ players: message.players || [], count: (message.players || []).length, locked: game.locked });
    // The current state follows in its own message; the lobby has none.
    if (game.phase === 'lobby') setPhase('lobby');
    else state.phase = game.phase;
  }

  function players(message) {
    state.players = Array.isArray(message.players) ? message.players : [];
    state.count = typeof message.count === 'number' ? message.count : state.players.length;
    if (typeof message.locked === 'boolean') state.locked = message.locked;
    renderPlayers();
  }

  function question(message, at) {
    state.question = message;
    state.questionCount = message.count || state.questionCount;
    setPhase('question');
    $('host-question-number').textContent = fill(t('Question {number} of {total}'), { number: message.index + 1, total: state.questionCount });
    const pointsLabel = live.pointsLabel(message.points);
    $('host-question-points').textContent = pointsLabel;
    $('host-question-points').hidden = !pointsLabel;
    live.setWords($('host-question-text'), message.text || '', message.html);
    live.fillImage($('host-question-image'), message.image);
    // The room hears the clip from this screen as the question opens; the host's mute stays on.
    const audio = live.fillSound($('host-question-sound'), message.audio, { autoplay: true, muted: state.soundMuted });
    if (audio) audio.addEventListener('volumechange', () => { state.soundMuted = audio.muted; });
    const tiles = $('host-answers');
    tiles.replaceChildren();
    const looks = live.variants(message.choices || []);
    const typed = message.kind === 'typedAnswer' || message.kind === 'numeric';
    if (message.kind === 'trueFalse') {
      tiles.append(tile('true', t('True'), live.TRUE_VARIANT), tile('false', t('False'), live.FALSE_VARIANT));
    } else if (!typed) {
      for (const choice of message.choices || []) tiles.append(tile(choice.id, choice.text, looks.get(Number(choice.id)), choice.html));
    }
    tiles.className = 'tile-grid host-tiles tiles-' + Math.min(tiles.children.length, 4);
    tiles.hidden = tiles.children.length === 0;
    const hint = $('host-typed-hint');
    const kind = message.kind;
    const range = message.estimate || null;
    const unit = message.unit ? ' ' + message.unit : '';
    const hints = {
      ordering: t('Players put these in order on their phones: points only for the whole order.'),
      matching: t('Players match each one on their phones. The answers: {answers}.'),
      estimate: range ? fill(t('Players estimate between {minimum} and {maximum} on their phones: the closer, the more points.'),
        { minimum: live.number(range.minimum) + unit, maximum: live.number(range.maximum) + unit }) : '',
      wordCloud: t('Players type a word or a few on their phones. Select × to hide a word from every screen.'),
      slide: ''
    };
    hint.hidden = !(typed || hints[kind]);
    if (kind === 'matching') live.fillWords(hint, hints[kind], 'answers', live.joinWords(message.answers || [], ' · '));
    else if (hints[kind] !== undefined) hint.textContent = hints[kind];
    else if (kind !== 'numeric') hint.textContent = t('Players type their answer on their phones.');
    else if (message.unit) hint.textContent = fill(t('Players type a number (in {unit}) on their phones.'), { unit: message.unit });
    else hint.textContent = t('Players type a number on their phones.');
    // An ordering's items (in the order of their ids, which says nothing), a matching's prompts.
    const parts = kind === 'ordering' ? message.items || [] : kind === 'matching' ? message.prompts || [] : [];
    $('host-parts').replaceChildren(...parts.map((part) => el('li', 'host-part', part.text, part.html)));
    $('host-parts').hidden = parts.length === 0;
    $('host-cloud').replaceChildren();
    $('host-cloud').hidden = true;
    state.slide = kind === 'slide';
    $('answered-count').hidden = state.slide;
    $('countdown').hidden = state.slide;
    updateControls();
    const connected = state.players.length === state.count ? state.players.filter((p) => p.connected !== false).length : state.count;
    $('answered-count').textContent = answeredText(0, connected);
    const ring = $('countdown-ring');
    if (state.slide) { countdown.stop(); $('host-question-text').focus({ preventScroll: true }); return; }
    countdown.start(message, at, (seconds, fraction) => {
      $('countdown-number').textContent = String(seconds);
      // CSSOM, not a style attribute: the CSP forbids inline style attributes in the HTML, but a
      // script from 'self' may set element.style properties.
      ring.style.strokeDashoffset = String(100 - 100 * fraction);
      $('countdown').classList.toggle('ring-low', seconds <= 5);
    });
    $('host-question-text').focus({ preventScroll: true });
  }
  const countdown = new live.Countdown();

  function tile(choice, text, variant, html) {
    const li = el('li', 'answer-tile variant-' + variant);
    li.dataset.choice = String(choice);
    li.append(live.shape(variant), el('span', 'answer-text', text, html));
    return li;
  }

  function answeredText(answered, players) {
    return fill(t('{answered} of {players} answered'), { answered: live.number(answered), players: live.number(players) });
  }

  function progress(message) {
    $('answered-count').textContent = answeredText(message.answered, message.players);
  }

  /** A word cloud as it grows (or after a word was hidden): on the question's screen and the reveal's. */
  function cloud(message) {
    if (!state.question || state.question.index !== message.index) return;
    live.renderCloud(state.phase === 'question' ? $('host-cloud') : $('reveal-cloud'), message, hideWord);
  }

  function hideWord(word) {
    if (!state.question) return;
    socket.send({ type: 'hide', question: state.question.index, key: word.key });
    // Gone at once; the server's next `cloud` message confirms it.
    for (const list of [$('host-cloud'), $('reveal-cloud')]) {
      for (const li of list.querySelectorAll('.cloud-word')) if (li.dataset.key === word.key) li.remove();
    }
  }

  function reveal(message) {
    countdown.stop();
    setPhase('reveal');
    const asked = state.question && state.question.index === message.index ? state.question : null;
    $('reveal-number').textContent = state.questionCount
      ? fill(t('Question {number} of {total}'), { number: message.index + 1, total: state.questionCount })
      : fill(t('Question {number}'), { number: message.index + 1 });
    live.setWords($('reveal-question'), asked ? asked.text : '', asked && asked.html);
    live.setWords($('correct-answer'), message.correct || '', message.correctHTML);
    // A poll's reveal is only how everyone voted: no answer is right, none is dimmed.
    const poll = !!asked && (asked.kind === 'poll' || asked.kind === 'wordCloud');
    document.querySelector('.reveal-correct').hidden = poll || !message.correct;
    live.setWords($('reveal-explanation'), message.explanation || '', message.explanationHTML);
    $('reveal-explanation').hidden = !message.explanation;
    $('reveal-answered').textContent = answeredText(message.answered, message.players);
    // The new kinds' reveals: the right order, the right pairs, the closest estimates, the word cloud.
    const byId = new Map(((asked && asked.answers) || []).map((answer) => [answer.id, answer]));
    const promptById = new Map(((asked && asked.prompts) || []).map((prompt) => [prompt.id, prompt]));
    const unknown = { text: '?' };
    const parts = Array.isArray(message.order) ? message.order
      : Array.isArray(message.pairs)
        ? message.pairs.map((pair) => live.joinWords([promptById.get(pair.prompt) || unknown, byId.get(pair.answer) || unknown], ' → ')) : [];
    $('reveal-parts').replaceChildren(...parts.map((part) => el('li', 'host-part', part.text, part.html)));
    $('reveal-parts').hidden = parts.length === 0;
    const closest = message.estimate && Array.isArray(message.estimate.closest) ? message.estimate.closest : [];
    const unit = asked && asked.unit ? ' ' + asked.unit : '';
    $('closest').replaceChildren(...closest.map((entry) => el('li', 'closest-row',
      fill(t('{nickname}: {value} (+{points} points)'), { nickname: entry.nickname, value: live.number(entry.value) + unit, points: live.number(entry.points) }))));
    $('closest').hidden = closest.length === 0;
    live.renderCloud($('reveal-cloud'), message.cloud, hideWord);
    if (message.cloud) document.querySelector('.reveal-correct').hidden = true;
    const tallies = Array.isArray(message.distribution) ? message.distribution : [];
    const choices = tallies.filter((t) => t.choice !== null && t.choice !== undefined).map((t) => ({ id: t.choice }));
    const looks = live.variants(choices);
    const trueFalse = asked ? asked.kind === 'trueFalse'
      : choices.length === 0 && tallies.length === 2 && (tallies[0].label === 'True' || tallies[0].label === t('True'))
        && (tallies[1].label === 'False' || tallies[1].label === t('False'));
    const most = Math.max(1, Number(message.answered) || 0, ...tallies.map((t) => Number(t.count) || 0));
    const list = $('distribution');
    list.replaceChildren();
    tallies.forEach((tally, position) => {
      let variant = null;
      if (tally.choice !== null && tally.choice !== undefined) variant = looks.get(Number(tally.choice));
      else if (trueFalse) variant = position === 0 ? live.TRUE_VARIANT : live.FALSE_VARIANT;
      const li = el('li', 'dist-row' + (poll ? '' : tally.correct ? ' is-correct' : ' is-wrong'));
      if (tally.choice !== null && tally.choice !== undefined) li.dataset.choice = String(tally.choice);
      else if (trueFalse) li.dataset.choice = position === 0 ? 'true' : 'false';
      const label = el('span', 'dist-label' + (variant === null ? ' plain-' + (tally.correct ? 'right' : 'wrong') : ' variant-' + variant));
      if (variant !== null) label.append(live.shape(variant));
      // The server names the rows of kinds without choices in English: said in the page's language.
      const plain = tally.choice === null || tally.choice === undefined;
      label.append(el('span', 'answer-text', plain ? PLAIN_LABELS[tally.label] || tally.label : tally.label, plain ? null : tally.labelHTML));
      if (tally.correct) label.append(el('span', 'tick', t('✓ correct')));
      const track = el('span', 'dist-track');
      track.setAttribute('aria-hidden', 'true');
      const bar = el('span', 'dist-bar' + (variant === null ? '' : ' variant-' + variant));
      // Widths come from the counts, so they are set here through the CSSOM (allowed by the CSP,
      // unlike a style attribute in the HTML). <meter> would need per-browser pseudo-elements to
      // take the answer's colour; the count is also written out as text for everyone.
      bar.style.width = (100 * (Number(tally.count) || 0) / most).toFixed(1) + '%';
      track.append(bar);
      const count = el('span', 'dist-count', live.number(tally.count));
      count.setAttribute('aria-label', live.plural(tally.count, t('{count} answer'), t('{count} answers')));
      li.append(label, track, count);
      list.append(li);
    });
    $('reveal-question').focus({ preventScroll: true });
  }

  const PLAIN_LABELS = { Right: t('Right'), 'Partly right': t('Partly right'), Wrong: t('Wrong'), True: t('True'), False: t('False') };

  function leaderboard(message) {
    countdown.stop();
    setPhase('leaderboard');
    $('leaderboard-heading').textContent = message.final ? t('Final leaderboard') : t('Leaderboard');
    $('leaderboard-list').replaceChildren(...(message.top || []).map((entry) => standing(entry, true)));
    const teams = Array.isArray(message.teams) ? message.teams : [];
    $('team-box').hidden = teams.length === 0;
    $('team-scores').replaceChildren(...teams.map(teamRow));
    if (message.final) state.finalTeams = teams;
    $('leaderboard-heading').focus({ preventScroll: true });
  }

  function standing(entry, withMovement) {
    const li = el('li', 'board-row');
    li.dataset.player = String(entry.id);
    const name = el('span', 'name', entry.nickname);
    if (entry.team) name.append(' ', el('span', 'badge team-badge', teamName(entry.team)));
    li.append(el('span', 'rank', entry.rank), name, el('span', 'board-score', live.number(entry.score)));
    if (withMovement) li.append(live.movement(entry.movement));
    return li;
  }

  function teamName(team) { return fill(t('Team {team}'), { team }); }

  function teamRow(team) {
    const li = el('li', 'board-row');
    const name = el('span', 'name', teamName(team.team));
    name.append(' ', el('span', 'members', live.plural(team.members, t('{count} player'), t('{count} players'))));
    // "T2": the team's number in the rank column.
    li.append(el('span', 'rank', fill(t('T{team}'), { team: team.team })), name, el('span', 'board-score', live.number(team.score)));
    return li;
  }

  function ended(message) {
    countdown.stop();
    state.ended = true;
    setPhase('ended');
    const places = (message.podium || []).slice(0, 3);
    $('podium').className = 'podium podium-' + places.length;
    const podium = places.map((entry, position) => {
      const li = el('li', 'podium-place place-' + (position + 1));
      li.dataset.player = String(entry.id);
      li.append(el('span', 'podium-rank', entry.rank), el('span', 'podium-name', entry.nickname),
        el('span', 'podium-score', live.number(entry.score)));
      if (entry.team) li.append(el('span', 'badge team-badge', teamName(entry.team)));
      return li;
    });
    $('podium').replaceChildren(...podium);
    live.fitWords($('podium').querySelectorAll('.podium-name'));
    const everyone = Array.isArray(message.standings) ? message.standings : [];
    const fragment = document.createDocumentFragment();
    for (const entry of everyone) fragment.append(standing(entry, false));
    $('standings').replaceChildren(fragment);
    $('standings-heading').hidden = everyone.length === 0;
    const teams = state.finalTeams || [];
    $('ended-team-box').hidden = teams.length === 0;
    $('ended-team-scores').replaceChildren(...teams.map(teamRow));
    $('ended-heading').focus({ preventScroll: true });
    socket.stop();
    $('host-connection').textContent = '';
  }

  function hostPresence(message, at) {
    const away = $('host-away');
    if (message.connected) { away.hidden = true; return; }
    const when = typeof message.endsAt === 'number' ? live.clock.wallTime(message.endsAt, message, at) : null;
    away.textContent = when
      ? fill(t('A host screen lost its connection. The game ends at {time} unless it comes back.'), { time: when })
      : t('A host screen lost its connection. The game ends in 5 minutes unless it comes back.');
    away.hidden = false;
  }

  function failed(message) {
    state.awaiting = null;
    updateControls();
    if (message.of === 'host' && message.code !== 'rate-limited' && message.code !== 'bad-message') {
      // Not this user's game, or it is over: reconnecting would only be refused again.
      state.refused = true;
      socket.stop();
      say(message.message || t('This game cannot be hosted from here.'), true);
      return;
    }
    say(message.message || t('That did not work.'), false);
  }

  // ---- Connection state

  function connection(status, delay) {
    const shown = $('host-connection');
    if (status === 'open') {
      shown.textContent = '';
    } else if (status === 'connecting') {
      shown.textContent = state.lostAt ? t('Reconnecting…') : t('Connecting…');
    } else if (status === 'waiting') {
      if (!state.lostAt) state.lostAt = Date.now();
      shown.textContent = fill(t('Connection lost: trying again in {seconds} s'), { seconds: live.number(Math.round(delay / 1000)) });
      // Only for display: the server decides when the game ends.
      const ends = live.time(new Date(state.lostAt + 5 * 60 * 1000));
      const away = $('host-away');
      away.textContent = fill(t('This screen lost its connection to the game. If it stays away, the game ends at about {time}.'), { time: ends });
      away.hidden = false;
    } else if (!state.ended) {
      shown.textContent = t('Disconnected');
    }
  }

  let sayTimer = null;
  function say(text, sticky) {
    const box = $('host-message');
    box.textContent = text;
    box.hidden = false;
    clearTimeout(sayTimer);
    if (!sticky) sayTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  // ---- Screens and controls

  const screens = { lobby: 'host-lobby', question: 'host-question', reveal: 'reveal', leaderboard: 'leaderboard', ended: 'ended' };

  function setPhase(phase) {
    state.phase = phase;
    state.awaiting = null;
    root.dataset.phase = phase;
    live.showScreen(root, screens[phase] || 'host-lobby');
    updateControls();
  }

  function updateControls() {
    const phase = state.phase;
    const waiting = (command) => state.awaiting === command;
    $('start-button').hidden = phase !== 'lobby';
    $('start-button').disabled = state.count === 0 || waiting('start');
    $('close-button').hidden = phase !== 'question' || !!state.slide;
    $('close-button').disabled = waiting('close');
    // A slide has no answers to close: the host moves on from it.
    const canNext = phase === 'reveal' || phase === 'leaderboard' || (phase === 'question' && !!state.slide);
    $('next-button').hidden = !canNext;
    $('next-button').disabled = waiting('next');
    $('next-hint').hidden = !canNext;
    $('next-hint').textContent = state.autoAdvance ? t('Moves on by itself after 5 s · Space or → : next now') : t('Space or → : next');
    $('host-controls').hidden = phase === 'ended';
    $('lock-button').setAttribute('aria-pressed', String(state.locked));
    $('lock-state').textContent = state.locked ? t('Locked: nobody new can join.') : t('New players can join.');
  }

  function command(type, extra) {
    if (state.refused || state.ended) return;
    state.awaiting = type;
    updateControls();
    socket.send(Object.assign({ type }, extra || {}));
    // A lost reply must not leave a button disabled for good.
    setTimeout(() => { if (state.awaiting === type) { state.awaiting = null; updateControls(); } }, 5000);
  }

  function next() {
    const slide = state.phase === 'question' && state.slide;
    if ((state.phase === 'reveal' || state.phase === 'leaderboard' || slide) && state.awaiting !== 'next') command('next');
  }

  $('start-button').addEventListener('click', () => command('start'));
  $('close-button').addEventListener('click', () => command('close'));
  $('next-button').addEventListener('click', next);
  $('lock-button').addEventListener('click', () => {
    state.locked = !state.locked; // shown at once; the server's next `players` message confirms it
    socket.send({ type: 'lock', locked: state.locked });
    updateControls();
  });
  $('end-button').addEventListener('click', () => {
    if (window.confirm(t('End the game now? Everyone sees the standings so far.'))) command('end');
  });

  // The podium's names fit again when the window changes size (a projector going full screen).
  window.addEventListener('resize', live.batched(() => {
    if (state.phase === 'ended') live.fitWords($('podium').querySelectorAll('.podium-name'));
  }));

  document.addEventListener('keydown', (event) => {
    if (event.key !== ' ' && event.key !== 'ArrowRight') return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.repeat) return;
    // A focused control handles Space itself: taking it here too would move on twice.
    if (event.target.closest && event.target.closest('button, a, input, select, textarea, summary')) return;
    if (state.phase !== 'reveal' && state.phase !== 'leaderboard' && !(state.phase === 'question' && state.slide)) return;
    event.preventDefault();
    next();
  });

  const fullscreen = $('fullscreen-button');
  if (!document.fullscreenEnabled) fullscreen.hidden = true;
  fullscreen.addEventListener('click', () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => { fullscreen.hidden = true; });
  });

  // ---- Lobby

  function showJoinAddress(joinURL) {
    root.dataset.joinUrl = joinURL;
    $('join-url').textContent = joinURL;
    try {
      // "quiz.example.org/join" reads better from the back of a room than the whole URL.
      $('join-address').textContent = new URL(joinURL).host + (root.dataset.joinPath || '/join');
    } catch (error) {
      $('join-address').textContent = joinURL;
    }
  }

  const chips = new Map(); // player id → li, reused so a focused × keeps its focus
  const renderPlayers = live.batched(() => {
    const list = $('player-list');
    const shown = state.players.slice(0, MAX_CHIPS);
    const wanted = new Set(shown.map((player) => player.id));
    for (const [id, node] of chips) if (!wanted.has(id)) { node.remove(); chips.delete(id); }
    let cursor = list.firstChild;
    for (const player of shown) {
      let node = chips.get(player.id);
      if (!node) { node = chip(player); chips.set(player.id, node); } else updateChip(node, player);
      if (node === cursor) cursor = cursor.nextSibling;
      else list.insertBefore(node, cursor);
    }
    const count = $('player-count');
    count.textContent = live.number(state.count);
    count.dataset.count = String(state.count);
    // The number is its own element (#player-count): only the word follows it.
    $('player-noun').textContent = state.count === 1 ? t('player') : t('players');
    const more = Math.max(0, state.count - shown.length);
    $('player-more').hidden = more === 0;
    $('player-more').textContent = live.plural(more, t('and {count} more player'), t('and {count} more players'));
    updateControls();
  });

  function chip(player) {
    const li = el('li', 'chip');
    li.dataset.player = String(player.id);
    const kick = el('button', 'kick', '×');
    kick.type = 'button';
    li.append(el('span', 'chip-name'), el('span', 'badge team-badge'), kick);
    updateChip(li, player);
    return li;
  }

  function updateChip(li, player) {
    const away = player.connected === false;
    li.classList.toggle('chip-away', away);
    li.children[0].textContent = away ? fill(t('{nickname} (away)'), { nickname: player.nickname }) : player.nickname;
    li.children[1].textContent = player.team ? teamName(player.team) : '';
    li.children[1].hidden = !player.team;
    li.children[2].setAttribute('aria-label', fill(t('Remove {nickname}'), { nickname: player.nickname }));
  }

  $('player-list').addEventListener('click', (event) => {
    const kick = event.target.closest('.kick');
    if (!kick) return;
    const li = kick.closest('li');
    const id = Number(li.dataset.player);
    const following = li.nextElementSibling || li.previousElementSibling;
    socket.send({ type: 'kick', player: id });
    // Gone at once; the server's `players` message confirms it.
    state.players = state.players.filter((player) => player.id !== id);
    state.count = Math.max(0, state.count - 1);
    renderPlayers();
    requestAnimationFrame(() => {
      const target = following && following.isConnected ? following.querySelector('.kick') : null;
      (target || $('start-button')).focus();
    });
  });

  // ---- Start

  showJoinAddress(root.dataset.joinUrl || '');
  setPhase('lobby');
  socket.connect();
  window.addEventListener('online', () => socket.retryNow());
})();
