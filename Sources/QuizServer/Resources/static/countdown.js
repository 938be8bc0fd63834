// Counts down a timed question's seconds. The server enforces the limit; this only shows it.
(function () {
  'use strict';
  var t = window.QuizboxTexts.t;
  var box = document.getElementById('countdown');
  var shown = document.getElementById('seconds-left');
  if (!box || !shown) return;
  var end = Date.now() + Number(box.getAttribute('data-seconds')) * 1000;
  var total = Number(box.getAttribute('data-total')) || 0;
  var ring = document.getElementById('ring-left');
  var timer = setInterval(function () {
    var exact = Math.max(0, (end - Date.now()) / 1000);
    var left = Math.ceil(exact);
    shown.textContent = String(left);
    // The ring empties with the time left (its path is 100 long).
    if (ring && total > 0) ring.style.strokeDashoffset = String(100 - Math.min(100, 100 * exact / total));
    if (left === 0) {
      clearInterval(timer);
      box.classList.add('countdown-over');
      box.textContent = t('Time is up: an answer now scores nothing.');
    }
  }, 250);
})();
