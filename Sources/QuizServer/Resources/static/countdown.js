// Counts down a timed question's seconds. The server enforces the limit; this only shows it.
(function () {
  'use strict';
  var box = document.getElementById('countdown');
  var shown = document.getElementById('seconds-left');
  if (!box || !shown) return;
  var end = Date.now() + Number(box.getAttribute('data-seconds')) * 1000;
  var timer = setInterval(function () {
    var left = Math.max(0, Math.ceil((end - Date.now()) / 1000));
    shown.textContent = String(left);
    if (left === 0) {
      clearInterval(timer);
      box.classList.add('countdown-over');
      box.textContent = 'Time is up: an answer now scores nothing.';
    }
  }, 250);
})();
