// Shows times as "3 min ago", with the exact time kept on hover (the title). The page itself
// says the exact time, so without this script nothing is lost; with it, times stay fresh while
// the page is open and items added later (the feed's next page) are shown the same way.
(function () {
  'use strict';
  function ago(seconds) {
    if (seconds < 45) return 'just now';
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) return minutes + ' min ago';
    var hours = Math.round(minutes / 60);
    if (hours < 24) return hours + ' h ago';
    var days = Math.round(hours / 24);
    if (days === 1) return 'yesterday';
    if (days < 7) return days + ' days ago';
    return null;  // older: the exact date reads better
  }
  function update() {
    var now = Date.now();
    document.querySelectorAll('time[data-relative]').forEach(function (element) {
      if (!element.hasAttribute('data-exact')) element.setAttribute('data-exact', element.textContent);
      var exact = element.getAttribute('data-exact');
      var when = Date.parse(element.getAttribute('datetime'));
      if (isNaN(when)) return;
      var text = ago(Math.max(0, (now - when) / 1000)) || exact;
      // Only a change is written: writing the same text would wake the observer below forever.
      if (element.textContent !== text) element.textContent = text;
      if (element.title !== exact) element.title = exact;
    });
  }
  update();
  setInterval(update, 30000);
  var list = document.getElementById('feed-items');
  if (list && 'MutationObserver' in window) new MutationObserver(update).observe(list, { childList: true });
})();
