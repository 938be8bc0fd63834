// The player's page of a live game (templates/live-join.mustache), phone first: join with a PIN
// and a nickname, answer on big tiles, see the result of each question. Needs live-common.js.
// A player who joined is remembered in localStorage under "quizbox-live-<pin>" as
// {player, secret, code}, and "quizbox-live-last" holds the last PIN: a reload, a new tab or a dropped
// connection comes back with `resume` (reconnecting after 1 s, 2 s, 4 s… at most 10 s).
//
// Ids (for people and for browser tests):
//   #live-player         root; data-pin, data-username, data-screen (the screen shown)
//   #join                #join-form, #pin-input, #nickname-input, #join-button,
//                        #rejoin (details) › #rejoin-toggle, #rejoin-form, #rejoin-pin,
//                        #rejoin-nickname, #rejoin-code-input, #rejoin-button
//   #connecting          while a stored player resumes; #forget-button gives up and shows #join
//   #lobby               #lobby-nickname, #lobby-team, #lobby-title, #rejoin-help
//   #question            #question-number, #question-points, #countdown-number, #question-text,
//                        #question-image, #answers (button.answer-tile[data-choice=id | "true" |
//                        "false"], aria-pressed for multiple choice), #text-answer, #answer-submit,
//                        #time-up (role=alert: empty until time runs out)
//   #waiting             #waiting-answer
//   #result              #result-verdict (class verdict-right | verdict-wrong | verdict-none),
//                        #result-points, #result-yours-text (the player's own pick),
//                        #result-correct-text, #result-behind ("120 points behind Ann" / "You are
//                        in the lead"), #score, #rank, #streak
//                        (#score, #rank, #streak carry the bare number in data-value)
//   #leaderboard         #leaderboard-me, #leaderboard-list (li[data-player], li.me), #team-scores
//   #ended               #final-rank, #final-score, #final-correct, #podium
//   #kicked
//   always               #message (errors, role=alert), #host-away, #connection,
//                        #me-bar › #me-name, #me-team, #me-score, #me-code › #rejoin-code
(function () {
  'use strict';
  const live = window.QuizboxLive;
  const root = document.getElementById('live-player');
  if (!live || !root) return;
  const $ = (id) => document.getElementById(id);
  const el = live.el;
  const t = live.t;
  const fill = live.fill;
  const teamName = (team) => fill(t('Team {team}'), { team });

  const store = {
    key: (pin) => 'quizbox-live-' + pin,
    get(pin) {
      try {
        const saved = JSON.parse(localStorage.getItem(store.key(pin)) || 'null');
        return saved && saved.player && saved.secret ? saved : null;
      } catch (error) { return null; }
    },
    set(pin, saved) {
      try {
        localStorage.setItem(store.key(pin), JSON.stringify(saved));
        localStorage.setItem('quizbox-live-last', pin);
      } catch (error) { /* private mode: the game goes on, only a reload forgets it */ }
    },
    /** The answer sent to the open question {index, label}, so a reload still shows the pick. */
    pick(pin) {
      try { return JSON.parse(localStorage.getItem(store.key(pin) + '-pick') || 'null'); } catch (error) { return null; }
    },
    setPick(pin, sent) {
      try { localStorage.setItem(store.key(pin) + '-pick', JSON.stringify(sent)); } catch (error) { /* shown until a reload */ }
    },
    clear(pin) {
      try {
        localStorage.removeItem(store.key(pin));
        localStorage.removeItem(store.key(pin) + '-pick');
        if (localStorage.getItem('quizbox-live-last') === pin) localStorage.removeItem('quizbox-live-last');
      } catch (error) { /* nothing stored */ }
    },
    last() {
      try { return localStorage.getItem('quizbox-live-last') || ''; } catch (error) { return ''; }
    }
  };

  const state = {
    pin: '',
    me: null,
    game: null,
    joined: false, // the server accepted us on this page at least once
    resuming: false,
    joining: null, // 'join' | 'rejoin' while the form waits for an answer
    kicked: false,
    ended: false,
    question: null,
    sent: null, // {index, label} of the answer sent for the open question
    selected: new Set(),
    timeUp: false,
    reveal: null,
    result: null
  };

  const socket = new live.LiveSocket({
    hello: () => {
      const saved = state.pin ? store.get(state.pin) : null;
      if (!saved) return null;
      state.resuming = true;
      return { type: 'resume', pin: state.pin, player: saved.player, secret: saved.secret };
    },
    shouldReconnect: () => !state.kicked && !state.ended && (state.joined || state.resuming),
    onMessage: receive,
    onState: connection
  });
  const countdown = new live.Countdown();

  // ---- Messages from the server

  function receive(message, at) {
    live.clock.note(message, at);
    switch (message.type) {
      case 'joined': joined(message); break;
      case 'question': question(message, at); break;
      case 'ack': acknowledged(message); break;
      case 'reveal': reveal(message); break;
      case 'cloud': cloud(message); break;
      case 'result': result(message); break;
      case 'leaderboard': leaderboard(message); break;
      case 'ended': ended(message); break;
      case 'host': hostPresence(message, at); break;
      case 'kicked': kicked(); break;
      case 'error': failed(message); break;
      default: break; // host-only messages
    }
  }

  function joined(message) {
    socket.accepted();
    const player = message.player || {};
    const game = message.game || {};
    state.pin = String(game.pin || state.pin);
    const saved = store.get(state.pin);
    const mine = saved && saved.player === player.id ? saved : null;
    const secret = message.secret || (mine ? mine.secret : null);
    // The server keeps only the code's hash: a resume cannot send it again, so the phone keeps it.
    const code = message.code || (mine ? mine.code : null);
    if (secret) store.set(state.pin, code ? { player: player.id, secret, code } : { player: player.id, secret });
    state.joined = true;
    state.resuming = false;
    state.joining = null;
    state.me = player;
    state.game = game;
    hideMessage();
    $('join-button').disabled = false;
    $('rejoin-button').disabled = false;
    if (location.pathname !== '/join/' + state.pin) {
      // A reload of /join/<pin> comes straight back into this game.
      try { history.replaceState(null, '', '/join/' + state.pin); } catch (error) { /* keep the address */ }
    }
    $('me-name').textContent = player.nickname || '';
    $('me-team').textContent = player.team ? teamName(player.team) : '';
    $('me-team').hidden = !player.team;
    if (code) $('rejoin-code').textContent = code;
    $('me-code').hidden = !code;
    setScore(player.score);
    $('me-bar').hidden = false;
    $('lobby-nickname').textContent = player.nickname || '';
    $('lobby-team').textContent = player.team ? fill(t('You play for Team {team}.'), { team: player.team }) : '';
    $('lobby-team').hidden = !player.team;
    $('lobby-title').textContent = game.title ? game.title + (game.questionCount ? ' · ' + live.plural(game.questionCount, t('{count} question'), t('{count} questions')) : '') : '';
    // The current question, result or standings follow in their own message.
    show(game.phase === 'lobby' || !game.phase ? 'lobby' : 'connecting');
  }

  function question(message, at) {
    state.question = message;
    state.sent = null;
    state.selected.clear();
    state.timeUp = false;
    state.reveal = null;
    state.result = null;
    $('question-number').textContent = fill(t('Question {number} of {total}'), { number: message.index + 1, total: message.count || '?' });
    const pointsLabel = live.pointsLabel(message.points);
    $('question-points').textContent = pointsLabel;
    $('question-points').hidden = !pointsLabel;
    live.setWords($('question-text'), message.text || '', message.html);
    live.fillImage($('question-image'), message.image);
    // Only when the host plays sound on phones; the player presses play.
    live.fillSound($('question-sound'), message.audio, { autoplay: false });
    $('time-up').textContent = '';
    hideMessage();

    const kind = kindOf(message);
    const answers = $('answers');
    answers.replaceChildren();
    const typed = kind === 'typedAnswer' || kind === 'numeric';
    if (kind === 'trueFalse') {
      answers.append(tile('true', t('True'), live.TRUE_VARIANT, 0), tile('false', t('False'), live.FALSE_VARIANT, 1));
    } else if (!typed) {
      const looks = live.variants(message.choices || []);
      (message.choices || []).forEach((choice, position) => {
        answers.append(tile(choice.id, choice.text, looks.get(Number(choice.id)), position, choice.html));
      });
    }
    const short = Array.from(answers.children).every((node) => node.textContent.length <= 26);
    answers.className = 'tile-grid player-tiles ' + (short && answers.children.length <= 4 ? 'tiles-2' : 'tiles-1');
    const cloudWord = kind === 'wordCloud';
    const parts = ['ordering', 'matching', 'estimate', 'wordCloud', 'slide'].includes(kind);
    answers.hidden = typed || parts;
    $('text-answer-box').hidden = !(typed || cloudWord);
    const input = $('text-answer');
    input.value = '';
    input.disabled = false;
    input.setAttribute('inputmode', kind === 'numeric' ? 'decimal' : 'text');
    input.setAttribute('maxlength', String(cloudWord ? (message.maxLength || 40) : 1000));
    $('text-answer-label').textContent = kind === 'numeric' && message.unit ? fill(t('Your answer (in {unit})'), { unit: message.unit })
      : cloudWord ? t('A word or a few') : t('Your answer');
    orderList(kind === 'ordering' ? message.items || [] : []);
    matchList(kind === 'matching' ? message : null);
    estimateBox(kind === 'estimate' ? message : null);
    $('answer-submit').hidden = !(typed || cloudWord || kind === 'multipleChoice' || kind === 'ordering' || kind === 'matching' || kind === 'estimate');
    $('answer-submit').disabled = false;
    $('question-help').textContent = {
      singleChoice: t('Tap one answer.'),
      poll: t('Tap one: there is no wrong answer.'),
      multipleChoice: t('Choose every right answer, then Submit.'),
      trueFalse: t('True or false?'),
      typedAnswer: t('Type your answer, then Submit.'),
      numeric: t('Type a number, then Submit.'),
      ordering: t('Put the items in order with Move up and Move down, then Submit. Points only for the whole order.'),
      matching: t('Choose the answer for each one, then Submit.'),
      estimate: t('Move the slider to your estimate, then Submit. The closer, the more points.'),
      wordCloud: t('Type a word or a few, then Submit: there is no wrong answer.'),
      slide: t('Look at the big screen: the host moves on.')
    }[kind];

    // A slide has no clock: it stays until the host moves on.
    $('countdown').hidden = kind === 'slide';
    if (kind === 'slide') countdown.stop();
    else {
      countdown.start(message, at, (seconds) => {
        $('countdown-number').textContent = String(seconds);
        $('countdown').classList.toggle('countdown-low', seconds <= 5);
      }, timeIsUp);
    }
    show('question', typed || cloudWord ? input : null);
  }

  /** An ordering's items as a list with Move up / Move down buttons; the list's order is the answer. */
  function orderList(items) {
    const list = $('order-list');
    list.replaceChildren(...items.map((item) => {
      const li = el('li', 'order-item');
      li.dataset.item = String(item.id);
      const up = el('button', 'order-move', t('Move up'));
      up.type = 'button';
      up.dataset.move = '-1';
      const down = el('button', 'order-move', t('Move down'));
      down.type = 'button';
      down.dataset.move = '1';
      li.append(el('span', 'order-text', item.text, item.html), up, down);
      return li;
    }));
    list.hidden = items.length === 0;
    labelOrder();
  }

  /** Each move button names its item, and the first and last cannot move further. */
  function labelOrder() {
    const rows = Array.from($('order-list').children);
    rows.forEach((li, position) => {
      const text = live.wordsOf(li.querySelector('.order-text')).text;
      const [up, down] = li.querySelectorAll('.order-move');
      up.setAttribute('aria-label', fill(t('Move “{item}” up'), { item: text }));
      down.setAttribute('aria-label', fill(t('Move “{item}” down'), { item: text }));
      up.disabled = position === 0 || !!state.sent;
      down.disabled = position === rows.length - 1 || !!state.sent;
    });
  }

  $('order-list').addEventListener('click', (event) => {
    const button = event.target.closest('.order-move');
    if (!button || button.disabled) return;
    const li = button.closest('li');
    const list = $('order-list');
    if (button.dataset.move === '-1' && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
    else if (button.dataset.move === '1' && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
    labelOrder();
    // Focus follows the item, so pressing again keeps moving it.
    const same = li.querySelector('.order-move[data-move="' + button.dataset.move + '"]');
    (same.disabled ? li.querySelector('.order-move:not([disabled])') || same : same).focus();
    $('order-status').textContent = (fill(t('“{item}” is now number {place}.'), { item: live.wordsOf(li.querySelector('.order-text')).text,
      place: Array.from(list.children).indexOf(li) + 1 }));
  });

  /** A matching: a select of the answers for each prompt. */
  function matchList(message) {
    const box = $('match-list');
    const prompts = message ? message.prompts || [] : [];
    const offered = message ? message.answers || [] : [];
    box.replaceChildren(...prompts.map((prompt) => {
      const row = el('div', 'match-row');
      const id = 'match-' + prompt.id;
      const label = el('label', 'match-prompt', prompt.text, prompt.html);
      label.htmlFor = id;
      const select = el('select');
      select.id = id;
      select.dataset.prompt = String(prompt.id);
      select.append(new Option(t('Choose…'), ''));
      // A label of MathML alone names nothing to axe or every screen reader: its words, as on the quiz pages.
      if (prompt.html) select.setAttribute('aria-label', live.wordsOf(label).text);
      for (const answer of offered) select.append(new Option(answer.text, String(answer.id)));
      row.append(label, select);
      return row;
    }));
    box.hidden = prompts.length === 0;
  }

  /** An estimate's slider, starting in the middle of its range, with the value written beside it. */
  function estimateBox(message) {
    const box = $('estimate-box');
    box.hidden = !message;
    if (!message) return;
    const range = message.estimate || { minimum: 0, maximum: 100, step: 1 };
    const slider = $('estimate-answer');
    slider.min = String(range.minimum);
    slider.max = String(range.maximum);
    slider.step = String(range.step);
    const steps = Math.round((range.maximum - range.minimum) / range.step);
    slider.value = String(range.minimum + Math.round(steps / 2) * range.step);
    slider.disabled = false;
    $('estimate-label').textContent = message.unit ? fill(t('Your estimate (in {unit})'), { unit: message.unit }) : t('Your estimate');
    showEstimate();
  }

  function showEstimate() {
    const message = state.question;
    const value = Number($('estimate-answer').value);
    $('estimate-value').textContent = live.number(value) + (message && message.unit ? ' ' + message.unit : '');
  }
  $('estimate-answer').addEventListener('input', showEstimate);

  /** The question's kind; an unknown one with choices is played as one choice. */
  function kindOf(message) {
    const known = ['singleChoice', 'multipleChoice', 'trueFalse', 'typedAnswer', 'numeric', 'poll', 'ordering', 'matching', 'estimate',
      'wordCloud', 'slide'];
    if (known.includes(message.kind)) return message.kind;
    return (message.choices || []).length > 0 ? 'singleChoice' : 'typedAnswer';
  }

  function tile(choice, text, variant, position, html) {
    const button = el('button', 'answer-tile variant-' + variant);
    button.type = 'button';
    button.dataset.choice = String(choice);
    if (position < 9) {
      button.append(el('span', 'key', String(position + 1)));
      button.setAttribute('aria-keyshortcuts', String(position + 1));
    }
    const words = el('span', 'answer-text', text, html);
    button.append(live.shape(variant), words);
    if (html) button.setAttribute('aria-label', live.wordsOf(words).text);
    if (kindOf(state.question) === 'multipleChoice') {
      button.setAttribute('aria-pressed', 'false');
      const tick = el('span', 'tick', '✓');
      tick.setAttribute('aria-hidden', 'true');
      button.append(tick);
    }
    return button;
  }

  $('answers').addEventListener('click', (event) => {
    const button = event.target.closest('.answer-tile');
    if (!button || button.disabled || !state.question) return;
    const kind = kindOf(state.question);
    const choice = button.dataset.choice;
    const label = live.wordsOf(button.querySelector('.answer-text'));
    if (kind === 'multipleChoice') {
      const on = !state.selected.has(choice);
      if (on) state.selected.add(choice); else state.selected.delete(choice);
      button.setAttribute('aria-pressed', String(on));
    } else if (kind === 'trueFalse') {
      button.classList.add('is-picked');
      send({ value: choice === 'true' }, label);
    } else {
      button.classList.add('is-picked');
      send({ choice: Number(choice) }, label);
    }
  });

  $('answer-form').addEventListener('submit', (event) => {
    event.preventDefault();
    if (!state.question || state.sent) return;
    const kind = kindOf(state.question);
    if (kind === 'multipleChoice') {
      if (state.selected.size === 0) { say(t('Choose at least one answer first.')); return; }
      const picked = Array.from($('answers').querySelectorAll('.answer-tile[aria-pressed="true"]'));
      send({ choices: picked.map((node) => Number(node.dataset.choice)) },
        live.joinWords(picked.map((node) => live.wordsOf(node.querySelector('.answer-text'))), ', '));
    } else if (kind === 'typedAnswer' || kind === 'numeric' || kind === 'wordCloud') {
      const value = $('text-answer').value.trim();
      if (!value) { say(t('Type an answer first.')); $('text-answer').focus(); return; }
      send(kind === 'numeric' ? { number: value } : { text: value }, { text: value });
    } else if (kind === 'ordering') {
      const rows = Array.from($('order-list').children);
      send({ order: rows.map((li) => Number(li.dataset.item)) }, live.joinWords(rows.map((li) => live.wordsOf(li.querySelector('.order-text'))), ' → '));
    } else if (kind === 'matching') {
      const matches = {};
      const said = [];
      for (const select of $('match-list').querySelectorAll('select')) {
        if (!select.value) continue;
        matches[select.dataset.prompt] = Number(select.value);
        said.push(live.joinWords([live.wordsOf(select.labels[0]), { text: select.selectedOptions[0].textContent }], ': '));
      }
      if (said.length === 0) { say(t('Choose at least one answer first.')); return; }
      send({ matches }, live.joinWords(said, '; '));
    } else if (kind === 'estimate') {
      const value = Number($('estimate-answer').value);
      send({ number: value }, { text: $('estimate-value').textContent || String(value) });
    }
  });

  /** `said`: the answer's words ({text, html}) for "Your answer". */
  function send(answer, said) {
    if (state.sent || state.timeUp) return;
    state.sent = { index: state.question.index, label: said.text };
    // Kept without its markup: innerHTML only ever takes what this page got from the server.
    store.setPick(state.pin, state.sent);
    if (said.html) state.sent = { ...state.sent, html: said.html };
    lockAnswers(true);
    hideMessage();
    socket.send({ type: 'answer', question: state.question.index, answer });
  }

  function lockAnswers(locked) {
    for (const button of $('answers').querySelectorAll('.answer-tile')) button.disabled = locked;
    for (const control of $('order-list').querySelectorAll('button')) control.disabled = locked;
    for (const control of $('match-list').querySelectorAll('select')) control.disabled = locked;
    $('estimate-answer').disabled = locked;
    if (!locked) labelOrder();
    $('text-answer').disabled = locked;
    $('answer-submit').disabled = locked;
  }

  function timeIsUp() {
    state.timeUp = true;
    lockAnswers(true);
    // Said at once by screen readers (the countdown itself stays quiet, or it would speak every second).
    $('time-up').textContent = t('Time is up.');
    $('countdown-number').textContent = '0';
  }

  function acknowledged(message) {
    if (!state.question || message.question !== state.question.index) return;
    answerIn();
  }

  /** What this phone sent to question `index`: kept in memory, and in the store across a reload. */
  function sentTo(index) {
    if (state.sent && state.sent.index === index) return state.sent;
    const saved = store.pick(state.pin);
    return saved && saved.index === index ? saved : null;
  }

  function answerIn() {
    const sent = state.question ? sentTo(state.question.index) : state.sent;
    if (sent && sent.label) live.fillWords($('waiting-answer'), t('Your answer: {answer}'), 'answer', { text: sent.label, html: sent.html });
    else $('waiting-answer').textContent = '';
    show('waiting');
  }

  function reveal(message) {
    countdown.stop();
    state.reveal = message;
    live.setWords($('result-correct-text'), message.correct || '', message.correctHTML);
    $('result-correct').hidden = !message.correct;
    live.setWords($('result-explanation'), message.explanation || '', message.explanationHTML);
    $('result-explanation').hidden = !message.explanation;
    live.renderCloud($('result-cloud'), message.cloud);
    if (!state.result || state.result.index !== message.index) {
      // The player's own result usually follows at once; until it does, say only that time is up.
      setVerdict('none', t('Question closed'));
      $('result-points').textContent = '';
    }
    show('result');
  }

  /** A word cloud after the host hid a word: shown in place of the reveal's. */
  function cloud(message) {
    if (state.reveal && state.reveal.index === message.index) live.renderCloud($('result-cloud'), message);
  }

  function result(message) {
    countdown.stop();
    state.result = message;
    if (!state.reveal || state.reveal.index !== message.index) {
      $('result-correct').hidden = true;
      $('result-explanation').hidden = true;
    }
    // A poll or a word cloud has no right answer: a vote or a word is counted, never wrong, and earns nothing.
    const asked = state.question && state.question.index === message.index ? kindOf(state.question) : null;
    const poll = asked === 'poll' || asked === 'wordCloud';
    const credit = typeof message.credit === 'number' ? message.credit : null;
    if (!message.answered) setVerdict('none', t('No answer'));
    else if (asked === 'wordCloud') setVerdict('counted', t('Your word is in the cloud.'));
    else if (poll) setVerdict('counted', t('Your vote is counted.'));
    else if (message.correct) setVerdict('right', t('Correct!'));
    else if (credit !== null && credit > 0 && !message.late) setVerdict('partly', fill(t('Partly right ({percent} %)'), { percent: credit }));
    else setVerdict('wrong', t('Wrong'));
    const gained = (Number(message.points) || 0) + (Number(message.bonus) || 0);
    $('result-points').textContent = message.bonus
      ? fill(t('+{points} points · +{bonus} streak bonus'), { points: live.number(message.points || 0), bonus: live.number(message.bonus) })
      : fill(t('+{points} points'), { points: live.number(message.points || 0) });
    $('result-points').dataset.value = String(gained);
    $('result-points').hidden = poll;
    // The player's own pick, beside the right answer when it was wrong.
    const sent = message.answered ? sentTo(message.index) : null;
    live.setWords($('result-yours-text'), sent && sent.label ? sent.label : '', sent && sent.html);
    $('result-yours').hidden = !(sent && sent.label);
    const behind = message.behind;
    $('result-behind').textContent = behind && behind.nickname
      ? fill(live.plural(behind.points, t('{count} point behind {nickname}'), t('{count} points behind {nickname}')), { nickname: behind.nickname })
      : (Number(message.rank) === 1 && Number(message.score) > 0 ? t('You are in the lead!') : '');
    setScore(message.score);
    setValue('rank', message.rank, live.number(message.rank));
    const streak = Number(message.streak) || 0;
    setValue('streak', streak, streak > 0 ? fill(t('{count} in a row'), { count: live.number(streak) }) : '0');
    if (streak > 0) $('streak').prepend(live.icon('flame'));
    show('result', $('result-verdict'));
  }

  function setVerdict(kind, text) {
    const verdict = $('result-verdict');
    verdict.className = 'verdict-big verdict-' + kind;
    verdict.textContent = text;
  }

  function setScore(score) {
    setValue('score', score || 0, live.number(score));
    $('me-score').textContent = live.plural(score || 0, t('{count} point'), t('{count} points'));
  }

  function setValue(id, value, text) {
    const node = $(id);
    node.textContent = text;
    node.dataset.value = String(value);
  }

  function leaderboard(message) {
    countdown.stop();
    $('leaderboard-heading').textContent = message.final ? t('Final leaderboard') : t('Leaderboard');
    const myId = state.me ? state.me.id : null;
    $('leaderboard-list').replaceChildren(...(message.top || []).map((entry) => {
      const li = el('li', 'board-row' + (entry.id === myId ? ' me' : ''));
      li.dataset.player = String(entry.id);
      const name = el('span', 'name', entry.nickname);
      if (entry.id === myId) name.append(' ', el('span', 'badge', t('you')));
      li.append(el('span', 'rank', entry.rank), name, el('span', 'board-score', live.number(entry.score)), live.movement(entry.movement));
      return li;
    }));
    const mine = state.result;
    $('leaderboard-me').textContent = mine && mine.rank
      ? fill(Number(mine.score) === 1 ? t('You are number {rank} with {count} point.') : t('You are number {rank} with {count} points.'),
        { rank: mine.rank, count: live.number(mine.score) })
      : '';
    const teams = Array.isArray(message.teams) ? message.teams : [];
    $('team-box').hidden = teams.length === 0;
    $('team-scores').replaceChildren(...teams.map((team) => {
      const mineTeam = state.me && state.me.team === team.team;
      const li = el('li', 'board-row' + (mineTeam ? ' me' : ''));
      li.append(el('span', 'rank', fill(t('T{team}'), { team: team.team })),
        el('span', 'name', mineTeam ? fill(t('Team {team} (yours)'), { team: team.team }) : teamName(team.team)),
        el('span', 'board-score', live.number(team.score)));
      return li;
    }));
    show('leaderboard');
  }

  function ended(message) {
    countdown.stop();
    state.ended = true;
    socket.stop();
    // Nothing is left to come back to.
    store.clear(state.pin);
    const you = message.you || {};
    setValue('final-rank', you.rank || '', you.rank ? live.number(you.rank) : '—');
    setValue('final-score', you.score || 0, live.number(you.score || 0));
    setValue('final-correct', you.correct || 0, live.number(you.correct || 0));
    const myId = state.me ? state.me.id : null;
    const podium = (message.podium || []).slice(0, 3);
    $('podium').className = 'podium podium-' + podium.length;
    $('me-code').hidden = true;
    $('podium').replaceChildren(...podium.map((entry, position) => {
      const li = el('li', 'podium-place place-' + (position + 1) + (entry.id === myId ? ' me' : ''));
      li.dataset.player = String(entry.id);
      li.append(el('span', 'podium-rank', entry.rank), el('span', 'podium-name', entry.nickname),
        el('span', 'podium-score', live.number(entry.score)));
      return li;
    }));
    $('connection').textContent = '';
    show('ended');
    live.fitWords($('podium').querySelectorAll('.podium-name'));
  }

  function hostPresence(message, at) {
    const away = $('host-away');
    if (message.connected) { away.hidden = true; return; }
    const when = typeof message.endsAt === 'number' ? live.clock.wallTime(message.endsAt, message, at) : null;
    away.textContent = when
      ? fill(t('The host lost the connection. If they are not back, the game ends at {time}.'), { time: when })
      : t('The host lost the connection. If they are not back within 5 minutes, the game ends.');
    away.hidden = false;
  }

  function kicked() {
    state.kicked = true;
    countdown.stop();
    socket.stop();
    store.clear(state.pin);
    $('me-bar').hidden = true;
    $('connection').textContent = '';
    show('kicked');
  }

  function failed(message) {
    const code = message.code;
    const text = message.message || t('Something went wrong.');
    if (code === 'kicked') { kicked(); return; }
    switch (message.of) {
      case 'resume':
        if (code === 'rate-limited') {
          setTimeout(() => {
            const hello = socket.isOpen ? socket.options.hello() : null;
            if (hello) socket.send(hello);
          }, 2000);
          return;
        }
        // The stored player is gone (the game ended, or it is another server's): start afresh.
        store.clear(state.pin);
        state.resuming = false;
        if (state.joined) {
          state.joined = false;
          // The server gives one answer for "the game ended" and "the rejoin code was used elsewhere".
          say(text);
        }
        $('me-bar').hidden = true;
        show('join');
        return;
      case 'join':
      case 'rejoin': {
        const form = message.of;
        state.joining = null;
        $('join-button').disabled = false;
        $('rejoin-button').disabled = false;
        const field = form === 'join'
          ? (code === 'nickname-taken' || code === 'nickname-invalid' ? 'nickname-input' : 'pin-input')
          : (code === 'bad-rejoin' ? 'rejoin-code-input' : 'rejoin-pin');
        // Said once, at its field (which takes focus, so a screen reader reads it there too).
        hideMessage();
        fieldError(form === 'join' ? 'join-error' : 'rejoin-error', field, text);
        return;
      }
      case 'answer':
        if (code === 'already-answered') { answerIn(); return; }
        if (code === 'not-open') { say(t('Too late: this question is closed.')); return; }
        state.sent = null;
        if (!state.timeUp) lockAnswers(false);
        for (const node of $('answers').querySelectorAll('.is-picked')) node.classList.remove('is-picked');
        say(text);
        return;
      default:
        if (code === 'not-joined' && state.pin && store.get(state.pin)) { socket.send(socket.options.hello()); return; }
        say(text);
    }
  }

  function fieldError(boxId, fieldId, text) {
    const box = $(boxId);
    box.textContent = text;
    box.hidden = false;
    const field = $(fieldId);
    field.setAttribute('aria-invalid', 'true');
    field.setAttribute('aria-describedby', boxId);
    field.focus();
  }

  function clearFieldErrors() {
    for (const id of ['join-error', 'rejoin-error']) $(id).hidden = true;
    for (const field of document.querySelectorAll('[aria-invalid="true"]')) {
      field.removeAttribute('aria-invalid');
      const hint = field.id.replace('-input', '-hint');
      if ($(hint)) field.setAttribute('aria-describedby', hint); else field.removeAttribute('aria-describedby');
    }
  }

  // ---- Connection state and messages

  function connection(status, delay) {
    const shown = $('connection');
    if (status === 'open') shown.textContent = '';
    else if (status === 'connecting') shown.textContent = state.joined ? t('Reconnecting…') : '';
    else if (status === 'waiting') shown.textContent = fill(t('Connection lost: trying again in {seconds} s'), { seconds: live.number(Math.round(delay / 1000)) });
    else if (status === 'closed' && state.joining) {
      state.joining = null;
      $('join-button').disabled = false;
      $('rejoin-button').disabled = false;
      say(t('The game server cannot be reached. Check your connection and try again.'));
    } else if (status === 'closed') {
      shown.textContent = '';
    }
  }

  function say(text) {
    const box = $('message');
    box.textContent = text;
    box.hidden = false;
  }

  function hideMessage() {
    $('message').hidden = true;
    $('message').textContent = '';
  }

  /** Shows a screen and moves focus to its heading (or `focus`), so a screen reader reads it. */
  function show(id, focus) {
    const changed = root.dataset.screen !== id;
    live.showScreen(root, id);
    if (!changed && !focus) return;
    const target = focus || document.querySelector('#' + id + ' h1');
    if (target) target.focus({ preventScroll: true });
    window.scrollTo(0, 0);
  }

  // ---- Forms

  function pinFrom(input) {
    return input.value.replace(/\s+/g, '');
  }

  $('join-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearFieldErrors();
    hideMessage();
    const pin = pinFrom($('pin-input'));
    const nickname = $('nickname-input').value.trim();
    if (!/^[0-9]{6}$/.test(pin)) { fieldError('join-error', 'pin-input', t('The PIN is the 6 digits on the big screen.')); return; }
    if (!nickname) { fieldError('join-error', 'nickname-input', t('Choose a nickname.')); return; }
    state.pin = pin;
    state.joining = 'join';
    $('join-button').disabled = true;
    socket.send({ type: 'join', pin, nickname });
  });

  $('rejoin-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearFieldErrors();
    hideMessage();
    const pin = pinFrom($('rejoin-pin'));
    const nickname = $('rejoin-nickname').value.trim();
    const code = $('rejoin-code-input').value.replace(/\s+/g, '').toUpperCase();
    if (!/^[0-9]{6}$/.test(pin)) { fieldError('rejoin-error', 'rejoin-pin', t('The PIN is the 6 digits on the big screen.')); return; }
    if (!nickname) { fieldError('rejoin-error', 'rejoin-nickname', t('Give the nickname you played with.')); return; }
    if (code.length !== 6) { fieldError('rejoin-error', 'rejoin-code-input', t('The rejoin code has 6 characters.')); return; }
    state.pin = pin;
    state.joining = 'rejoin';
    $('rejoin-button').disabled = true;
    socket.send({ type: 'rejoin', pin, nickname, code });
  });

  // Keys 1–9 pick the tile with that number (the number is printed on it).
  document.addEventListener('keydown', (event) => {
    if (root.dataset.screen !== 'question' || event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    if (!/^[1-9]$/.test(event.key)) return;
    if (event.target.closest && event.target.closest('input, textarea, select')) return;
    const button = $('answers').querySelectorAll('.answer-tile')[Number(event.key) - 1];
    if (!button || button.disabled) return;
    event.preventDefault();
    button.focus();
    button.click();
  });

  // A phone turned sideways has wider podium places: the names may grow back.
  window.addEventListener('resize', live.batched(() => {
    if (root.dataset.screen === 'ended') live.fitWords($('podium').querySelectorAll('.podium-name'));
  }));

  // A phone waking up or a network coming back need not wait out the backoff.
  document.addEventListener('visibilitychange', () => { if (!document.hidden) socket.retryNow(); });
  window.addEventListener('online', () => socket.retryNow());

  // ---- Start: come back into a stored game, or ask for a PIN

  const pagePin = (root.dataset.pin || '').trim();
  state.pin = pagePin || store.last();
  if (!pagePin && state.pin) $('rejoin-pin').value = state.pin;
  if (state.pin && store.get(state.pin)) {
    state.resuming = true;
    show('connecting');
    socket.connect();
  } else {
    state.pin = pagePin;
    const nickname = $('nickname-input');
    show('join', pagePin ? (nickname.readOnly ? $('join-button') : nickname) : null);
  }

  // A stored game that does not answer need not hold the page: forget it and join another.
  $('forget-button').addEventListener('click', () => {
    store.clear(state.pin);
    state.resuming = false;
    show('join');
  });
})();
