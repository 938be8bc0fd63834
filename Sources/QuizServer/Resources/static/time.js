// Shows times as "3 min ago" in the page's language (Intl.RelativeTimeFormat), with the exact time
// kept on hover (the title). The page itself says the exact time, so without this script nothing
// is lost; with it, times stay fresh while the page is open and items added later (the feed's
// next page) are shown the same way.
(function () {
  'use strict';
  var t = window.QuizboxTexts.t;
  var lang = document.documentElement.lang || 'en';
  var hasIntl = typeof Intl === 'object' && typeof Intl.RelativeTimeFormat === 'function';
  // Minutes and hours read short ("3 min ago"), days in full ("3 days ago"), as before.
  function relative(style) {
    try { return new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: style }); } catch (e) { return new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: style }); }
  }
  var shortFormat = hasIntl ? relative('short') : null;
  var longFormat = hasIntl ? relative('long') : null;
  function ago(seconds) {
    if (seconds < 45) return t('just now');
    if (!hasIntl) return null;  // the exact date then
    var minutes = Math.round(seconds / 60);
    if (minutes < 60) return shortFormat.format(-minutes, 'minute');
    var hours = Math.round(minutes / 60);
    if (hours < 24) return shortFormat.format(-hours, 'hour');
    var days = Math.round(hours / 24);
    if (days < 7) return longFormat.format(-days, 'day');  // 1: "yesterday"
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
