// "Name them all" as you type: every pause in typing sends the box's text as a guess, a found
// item fills its blank and clears the box. Without this script the form's Guess button works.
(function () {
  'use strict';
  var t = window.QuizboxTexts.t;
  var fill = window.QuizboxTexts.fill;
  var game = document.getElementById('game');
  var form = document.getElementById('guess-form');
  var input = document.getElementById('guess');
  if (!game || !form || !input) return;
  var feedback = document.getElementById('guess-feedback');
  var clock = document.getElementById('clock');
  var foundCount = document.getElementById('found-count');
  var id = game.getAttribute('data-game');
  var end = Date.now() + Number(game.getAttribute('data-seconds')) * 1000;
  var debounce = null;
  var inFlight = false;
  var queued = null;
  var lastSent = null;

  function say(text) { feedback.textContent = text; }
  var limit = Number(input.getAttribute('maxlength')) || 200;
  var tooLong = fill(t('A guess is at most {limit} characters.'), { limit: limit.toLocaleString(document.documentElement.lang || 'en') });

  var ticker = setInterval(function () {
    var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    clock.textContent = Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0');
    if (left === 0) {
      clearInterval(ticker);
      input.disabled = true;
      say(t('Time is up.'));
      setTimeout(function () { window.location.reload(); }, 1500);
    }
  }, 250);

  function reveal(item) {
    var cell = game.querySelector('#items li[data-index="' + item.index + '"]');
    if (!cell) return;
    cell.textContent = item.answer;
    cell.className = 'item-found';
    cell.removeAttribute('data-index');
  }

  function send(text, explicit) {
    inFlight = true;
    lastSent = text;
    fetch('/api/v1/games/' + id + '/guesses', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
      body: JSON.stringify({ text: text })
    }).then(function (response) {
      return response.json().then(function (body) { return { status: response.status, body: body }; });
    }).then(function (result) {
      inFlight = false;
      if (result.status !== 200) {
        say(result.body && result.body.error ? result.body.error.message : t('That guess did not go through.'));
      } else {
        var verdict = result.body.verdict;
        foundCount.textContent = String(result.body.foundCount);
        if (verdict === 'found') {
          reveal(result.body.item);
          if (input.value === text) input.value = '';
          say(fill(t('Found: {answer}'), { answer: result.body.item.answer }));
        } else if (verdict === 'alreadyFound' && (explicit || input.value === text)) {
          say(fill(t('Already found: {answer}'), { answer: result.body.item.answer }));
          if (explicit && input.value === text) input.value = '';
        } else if (verdict === 'notAnItem' && explicit) {
          // Cleared, or the next guess would be typed onto the end of this one.
          say(fill(t('“{guess}” is not on the list.'), { guess: text.trim() }));
          if (input.value === text) input.value = '';
        } else if (verdict === 'tooLong') {
          say(tooLong);
        }
        if (result.body.state === 'finished') { window.location.reload(); return; }
      }
      if (queued !== null) {
        var next = queued;
        queued = null;
        if (next.text !== lastSent || next.explicit) send(next.text, next.explicit);
      }
    }).catch(function () {
      inFlight = false;
      say(t('No connection: press Guess to try again.'));
    });
  }

  function guess(text, explicit) {
    if (text.trim() === '') return;
    if (inFlight) { queued = { text: text, explicit: explicit }; return; }
    send(text, explicit);
  }

  input.addEventListener('input', function () {
    clearTimeout(debounce);
    // The box stops at its limit without a word (a long paste is cut): say so.
    if (input.value.length >= limit) { say(tooLong); return; }
    debounce = setTimeout(function () { guess(input.value, false); }, 120);
  });
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearTimeout(debounce);
    guess(input.value, true);
  });
})();
