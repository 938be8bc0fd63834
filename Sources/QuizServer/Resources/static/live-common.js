// Live games, shared by the host screen (live-host.js) and the player page (live-player.js):
// the socket that comes back after a drop, the countdown clock, and the answer tiles' colours and
// shapes, which must be the same on the big screen and on every phone. No ids of its own.
// Exposes window.QuizboxLive. The protocol is docs/live-protocol.md (version 1).
(function () {
  'use strict';

  const MAX_BACKOFF_MS = 10000;

  // The page's translations (texts.js), shared with live-host.js and live-player.js as QuizboxLive.t / .fill.
  var t = window.QuizboxTexts.t;
  var fill = window.QuizboxTexts.fill;
  const lang = document.documentElement.lang || 'en';

  /** The socket's address: the same origin as the page (the server refuses any other). */
  function socketURL() {
    return (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/live/socket';
  }

  /**
   * One WebSocket that reconnects after an unexpected close, waiting 1 s, 2 s, 4 s… at most 10 s.
   * options.hello(): the message that says who is speaking, sent first on every new connection
   * (host, resume), or null to send nothing first. options.shouldReconnect(): whether a close
   * should be followed by a new connection. options.onMessage(message, receivedAt),
   * options.onState('connecting' | 'open' | 'waiting' | 'closed', delayMs).
   */
  class LiveSocket {
    constructor(options) {
      this.options = options;
      this.ws = null;
      this.failures = 0;
      this.timer = null;
      this.queue = [];
      this.stopped = false;
    }

    get isOpen() { return this.ws !== null && this.ws.readyState === WebSocket.OPEN; }

    connect() {
      if (this.stopped) return;
      clearTimeout(this.timer);
      this.timer = null;
      if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
      this.options.onState('connecting', 0);
      let ws;
      try {
        ws = new WebSocket(socketURL());
      } catch (error) {
        this.closed();
        return;
      }
      this.ws = ws;
      ws.addEventListener('open', () => {
        if (ws !== this.ws) return;
        this.options.onState('open', 0);
        const hello = this.options.hello();
        if (hello) this.write(hello);
        const queued = this.queue;
        this.queue = [];
        for (const message of queued) this.write(message);
      });
      ws.addEventListener('message', (event) => {
        if (ws !== this.ws || typeof event.data !== 'string') return;
        let message;
        try { message = JSON.parse(event.data); } catch (error) { return; }
        if (message && typeof message.type === 'string') this.options.onMessage(message, performance.now());
      });
      ws.addEventListener('close', () => { if (ws === this.ws) this.closed(); });
    }

    /** Sends now, or as soon as a connection is open (it opens one when none is under way). */
    send(message) {
      if (this.isOpen) { this.write(message); return; }
      this.queue.push(message);
      if (!this.timer) this.connect();
    }

    write(message) {
      this.ws.send(JSON.stringify(Object.assign({ v: 1 }, message)));
    }

    /** The server accepted the hello: the next drop starts again from a 1 s wait. */
    accepted() { this.failures = 0; }

    closed() {
      this.ws = null;
      if (this.stopped || !this.options.shouldReconnect()) {
        this.queue = [];
        this.options.onState('closed', 0);
        return;
      }
      const delay = Math.min(MAX_BACKOFF_MS, 1000 * Math.pow(2, this.failures));
      this.failures += 1;
      this.options.onState('waiting', delay);
      this.timer = setTimeout(() => { this.timer = null; this.connect(); }, delay);
    }

    /** Reconnects at once (the phone woke up, the network came back), keeping the backoff count. */
    retryNow() {
      if (this.stopped || this.isOpen || !this.timer) return;
      this.connect();
    }

    /** No more reconnecting: the game ended, the player was removed, the host was refused. */
    stop() {
      this.stopped = true;
      clearTimeout(this.timer);
      this.timer = null;
      this.queue = [];
      if (this.ws) {
        const ws = this.ws;
        this.ws = null;
        ws.close();
      }
    }
  }

  /**
   * Times come from the server's clock. A message with a deadline also carries the server's `now`,
   * so what is left is `deadline - now`, counted from when the message arrived on the monotonic
   * performance clock: the device's own date and time never matter.
   */
  const clock = {
    offset: null, // server time minus performance.now(), from the last message that had `now`
    note(message, receivedAt) {
      if (typeof message.now === 'number') clock.offset = message.now - receivedAt;
    },
    /** The local performance.now() at which a server time falls, or null without any `now` yet. */
    local(serverTime, message, receivedAt) {
      if (message && typeof message.now === 'number') return receivedAt + (serverTime - message.now);
      return clock.offset === null ? null : serverTime - clock.offset;
    },
    /** A server time as a wall-clock time to show ("14:05"), using the device clock only to print it. */
    wallTime(serverTime, message, receivedAt) {
      const at = clock.local(serverTime, message, receivedAt);
      if (at === null) return null;
      const date = new Date(Date.now() + (at - performance.now()));
      return time(date);
    }
  };

  /** A wall-clock time ("14:05") in the page's language. */
  function time(date) {
    return date.toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit' });
  }

  /** Calls tick(secondsLeft, fraction) every 200 ms until the local deadline, then done(). */
  class Countdown {
    constructor() { this.timer = null; }
    start(message, receivedAt, tick, done) {
      this.stop();
      const total = Math.max(1, Number(message.seconds) || 1) * 1000;
      const end = receivedAt + Math.max(0, message.deadline - message.now);
      const step = () => {
        const left = Math.max(0, end - performance.now());
        tick(Math.ceil(left / 1000), Math.min(1, left / total));
        if (left <= 0) { this.stop(); if (done) done(); }
      };
      step();
      if (this.timer === null && end > performance.now()) this.timer = setInterval(step, 200);
    }
    stop() { clearInterval(this.timer); this.timer = null; }
  }

  // Each answer keeps one colour and one shape everywhere. Choices are shuffled per phone when the
  // host asks for it, so the look follows the choice's id (its place among the question's ids,
  // smallest first), never where the tile happens to sit: "the red triangle" is the same answer on
  // the big screen and on every phone. Shape and text go with the colour, never colour alone.
  const SHAPES = [
    ['triangle', 'M12 3 22 20H2Z'],
    ['diamond', 'M12 2 22 12 12 22 2 12Z'],
    ['circle', 'M2 12a10 10 0 1 0 20 0a10 10 0 1 0-20 0Z'],
    ['square', 'M3 3H21V21H3Z'],
    ['star', 'M12 2l2.9 6.6 7.1.6-5.4 4.7 1.6 7L12 17.2 5.8 20.9l1.6-7L2 9.2l7.1-.6Z'],
    ['hexagon', 'M7 3h10l5 9-5 9H7l-5-9Z'],
    ['pentagon', 'M12 2l10 7.5-3.8 12.5H5.8L2 9.5Z'],
    ['cross', 'M9 2h6v7h7v6h-7v7H9v-7H2V9h7Z']
  ];
  // True and false use the second and first looks (blue diamond, red triangle) on both screens.
  const TRUE_VARIANT = 1;
  const FALSE_VARIANT = 0;

  /** Map from choice id to variant number (0…7), by the ids' order. */
  function variants(choices) {
    const ids = choices.map((choice) => Number(choice.id)).sort((a, b) => a - b);
    const map = new Map();
    ids.forEach((id, position) => map.set(id, position % SHAPES.length));
    return map;
  }

  /** A 24×24 SVG of one path, hidden from screen readers (the words beside it say it all). */
  function svgPath(d, className) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('viewBox', '0 0 24 24');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.setAttribute('class', className);
    const path = document.createElementNS(ns, 'path');
    path.setAttribute('d', d);
    svg.appendChild(path);
    return svg;
  }

  /** The shape of a variant as a small inline SVG. */
  function shape(variant) {
    const [name, d] = SHAPES[variant % SHAPES.length];
    return svgPath(d, 'shape shape-' + name);
  }

  // Icons drawn in SVG, not emoji: a projector PC or a phone without the emoji font shows an
  // empty box. Decorative: the words beside each say it.
  const ICONS = {
    flame: 'M12 2c1 3.5-1.5 5-3 7.5S7 14 8 16.5c-1.5-.5-2.5-2-2.5-4C3.5 15 4 19 7 21.2 8.5 22.3 10.2 23 12 23c4.4 0 8-3.1 8-7.5 0-3.4-2-5.2-3.5-7.2-.4 1.6-1.3 2.7-2.5 3.2.6-3.4-.2-6.6-2-9.5Z'
  };

  function icon(name) { return svgPath(ICONS[name], name + '-icon'); }

  /** document.createElement with a class and text (see setWords for `html`). */
  function el(tag, className, text, html) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    setWords(node, text, html);
    return node;
  }

  /**
   * A text into a node: as text, or, when the server sent `html` beside it (only for a text with
   * TeX: escaped by the server, its maths as MathML), as that markup.
   */
  function setWords(node, text, html) {
    if (html) node.innerHTML = html;
    else if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  /**
   * A node's words as setWords put them: `html` (else null) when it holds maths, and `text` as
   * plain words (1/2, x^2) for labels and announcements, where markup cannot go and a formula's
   * textContent would run its digits together and repeat its TeX.
   */
  function wordsOf(node) {
    if (!node.querySelector('math, code.tex')) return { text: node.textContent, html: null };
    return { text: plainWords(node).replace(/\s+/g, ' ').trim(), html: node.innerHTML };
  }

  function plainWords(node) {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.localName === 'math') return plainMath(node);
    return Array.from(node.childNodes).map(plainWords).join('');
  }

  /** A formula as the terminal player writes it, near enough: a/b, x^2, √x, its TeX annotation left out. */
  function plainMath(node) {
    const parts = Array.from(node.children).filter((child) => child.localName !== 'annotation').map(plainMath);
    const group = (text) => (/^[\p{L}\p{N}.]+$/u.test(text) ? text : '(' + text + ')');
    const [a, b, c] = parts;
    switch (node.localName) {
      case 'mfrac': return group(a) + '/' + group(b);
      case 'msqrt': return '√' + group(parts.join(''));
      case 'mroot': return group(b) + '√' + group(a);
      case 'msup': case 'mover': return a + '^' + group(b);
      case 'msub': case 'munder': return a + '_' + group(b);
      case 'msubsup': case 'munderover': return a + '_' + group(b) + '^' + group(c);
      case 'mtr': return parts.join(', ');
      case 'mtable': return parts.join('; ');
      default: return parts.length ? parts.join('') : node.textContent;
    }
  }

  function escapeHTML(text) {
    return String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }

  /**
   * Words ({text, html}) joined into one: `html` only when one of them has maths (the others
   * escaped), so plain answers stay text.
   */
  function joinWords(words, separator) {
    const text = words.map((w) => w.text).join(separator);
    if (!words.some((w) => w.html)) return { text, html: null };
    return { text, html: words.map((w) => w.html || escapeHTML(w.text)).join(escapeHTML(separator)) };
  }

  /** fill() for a node: a value's html (from the server) as markup, the rest as text. */
  function fillWords(node, template, name, words) {
    if (!words.html) { setWords(node, fill(template, { [name]: words.text })); return; }
    const [before, after] = template.split('{' + name + '}');
    setWords(node, fill(template, { [name]: words.text }), escapeHTML(before) + words.html + escapeHTML(after || ''));
  }

  function number(value) {
    return Number(value || 0).toLocaleString(lang);
  }

  /** plural(n, t('{count} player'), t('{count} players')): the first for 1, the second for the rest. */
  function plural(count, one, many) {
    return fill(Number(count) === 1 ? one : many, { count: number(count) });
  }

  /** "▲ 2" / "▼ 1" with words for screen readers; nothing for a player who kept their place, so the
   * first leaderboard (nobody has moved yet) shows no column of dashes, and later ones show who moved. */
  function movement(value) {
    const span = el('span', 'move');
    const moved = Number(value) || 0;
    if (moved !== 0) span.setAttribute('role', 'img');
    if (moved > 0) {
      span.classList.add('move-up');
      span.textContent = '▲ ' + moved;
      span.setAttribute('aria-label', plural(moved, t('up {count} place'), t('up {count} places')));
    } else if (moved < 0) {
      span.classList.add('move-down');
      span.textContent = '▼ ' + -moved;
      span.setAttribute('aria-label', plural(-moved, t('down {count} place'), t('down {count} places')));
    }
    return span;
  }

  /** The question's picture, or nothing. */
  function fillImage(figure, image) {
    figure.replaceChildren();
    figure.hidden = !(image && image.url);
    if (figure.hidden) return;
    const img = document.createElement('img');
    img.src = image.url;
    img.alt = image.alt || '';
    if (image.width) img.width = image.width;
    if (image.height) img.height = image.height;
    figure.appendChild(img);
  }

  /** The question's sound clip with the browser's own controls, its description for people who
   *  cannot hear it, and Replay; nothing without one. With `autoplay` (the host's screen, which a
   *  click has woken) it starts at once; `muted` carries the host's mute from clip to clip. */
  function fillSound(figure, sound, options) {
    figure.replaceChildren();
    figure.hidden = !(sound && sound.url);
    if (figure.hidden) return null;
    const audio = document.createElement('audio');
    audio.controls = true;
    audio.preload = 'auto';
    audio.src = sound.url;
    audio.setAttribute('aria-label', t('Sound clip'));
    audio.muted = Boolean(options && options.muted);
    const replay = document.createElement('button');
    replay.type = 'button';
    replay.className = 'button secondary sound-replay';
    replay.textContent = t('Replay');
    replay.addEventListener('click', () => {
      audio.currentTime = 0;
      audio.play().catch(() => {});
    });
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = t('Cannot hear it? Read what it holds');
    const description = document.createElement('p');
    description.textContent = sound.description || '';
    details.append(summary, description);
    figure.append(audio, replay, details);
    // A browser that still blocks it leaves the controls to press.
    if (options && options.autoplay) audio.play().catch(() => {});
    return audio;
  }

  /** Shows the one `.screen` with this id inside root and hides the others. */
  function showScreen(root, id) {
    for (const screen of root.querySelectorAll('.screen')) screen.hidden = screen.id !== id;
    root.setAttribute('data-screen', id);
  }

  /** Whether a word of the node's text is split over two lines. */
  function splitsAWord(node) {
    const text = node.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) return false;
    const range = document.createRange();
    for (const match of text.textContent.matchAll(/\S+/g)) {
      range.setStart(text, match.index);
      range.setEnd(text, match.index + match[0].length);
      const rects = range.getClientRects();
      if (rects.length > 1 && Math.round(rects[0].top) !== Math.round(rects[rects.length - 1].top)) return true;
    }
    return false;
  }

  /**
   * Shrinks each name (down to 60 %) until no word of it breaks across lines: a podium place on a
   * phone is about nine letters wide, and "Maximi|liana" read as two words. Names wrap between
   * words as usual; only a word longer than the place at 60 % still breaks. Call when shown.
   */
  function fitWords(nodes) {
    for (const node of nodes) {
      node.style.fontSize = '';
      for (let scale = 0.95; scale >= 0.6 && splitsAWord(node); scale -= 0.05) node.style.fontSize = scale.toFixed(2) + 'em';
    }
  }

  /** Runs fn once before the next frame however often it is asked for. */
  function batched(fn) {
    let pending = false;
    return () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; fn(); });
    };
  }

  const points = { double: t('Double points'), none: t('No points') };

  /**
   * A word cloud (`cloud.words`, most common first) into the list `ul`: each word's size by its
   * count, its text as text (players typed it). With `onHide`, each word gets a Hide button.
   */
  function renderCloud(ul, cloud, onHide) {
    const words = cloud && Array.isArray(cloud.words) ? cloud.words : [];
    const most = Math.max(1, ...words.map((word) => Number(word.count) || 0));
    ul.replaceChildren(...words.map((word) => {
      const li = el('li', 'cloud-word');
      li.dataset.key = word.key;
      // Five sizes, from the count's share of the most common: the class names the size.
      li.classList.add('cloud-size-' + Math.max(1, Math.ceil(5 * (Number(word.count) || 0) / most)));
      const text = el('span', 'cloud-text', word.text);
      const count = el('span', 'cloud-count', number(word.count));
      count.setAttribute('aria-label', plural(word.count, t('{count} answer'), t('{count} answers')));
      li.append(text, count);
      if (onHide) {
        const hide = el('button', 'cloud-hide quiet', '×');
        hide.type = 'button';
        hide.setAttribute('aria-label', fill(t('Hide “{word}”'), { word: word.text }));
        hide.addEventListener('click', () => onHide(word));
        li.append(hide);
      }
      return li;
    }));
    ul.hidden = words.length === 0;
  }

  window.QuizboxLive = {
    t, fill, time, LiveSocket, Countdown, clock, variants, shape, icon, el, number, plural, movement, fillImage, fillSound, showScreen, fitWords, batched,
    renderCloud, setWords, wordsOf, joinWords, fillWords,
    TRUE_VARIANT, FALSE_VARIANT, SHAPE_COUNT: SHAPES.length, pointsLabel: (value) => points[value] || ''
  };
})();
