// Counts down a timed question's seconds. The server enforces the limit; this only shows it.
// A screen reader hears it at a few moments only (the timer itself is silent, or it would speak
// every second): 30 s left on a long clock, 10 s left, and when time is up.
(function () {
  'use strict';
  var t = window.QuizboxTexts.t;
  var fill = window.QuizboxTexts.fill;
  var box = document.getElementById('countdown');
  var shown = document.getElementById('seconds-left');
  var say = document.getElementById('countdown-say');
  if (!box || !shown) return;
  var end = Date.now() + Number(box.getAttribute('data-seconds')) * 1000;
  var total = Number(box.getAttribute('data-total')) || 0;
  var ring = document.getElementById('ring-left');
  var lang = document.documentElement.lang || 'en';
  // The moments worth a word: only those still ahead, and only on a clock long enough to have them.
  var moments = [30, 10].filter(function (seconds) { return total >= seconds * 2 && Number(box.getAttribute('data-seconds')) > seconds; });
  function announce(text) { if (say) say.textContent = text; }
  var timer = setInterval(function () {
    var exact = Math.max(0, (end - Date.now()) / 1000);
    var left = Math.ceil(exact);
    shown.textContent = String(left);
    // The ring empties with the time left (its path is 100 long).
    if (ring && total > 0) ring.style.strokeDashoffset = String(100 - Math.min(100, 100 * exact / total));
    if (moments.length && left <= moments[0] && left > 0) {
      announce(fill(t('{count} seconds left'), { count: moments[0].toLocaleString(lang) }));
      moments.shift();
    }
    if (left === 0) {
      clearInterval(timer);
      box.classList.add('countdown-over');
      box.textContent = t('Time is up: an answer now scores nothing.');
      announce(t('Time is up: an answer now scores nothing.'));
    }
  }, 250);
})();
