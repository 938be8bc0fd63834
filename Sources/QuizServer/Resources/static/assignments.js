// Assignments in the browser's time zone: times the server wrote in UTC are shown in local time
// (the UTC text stays as the tooltip), a datetime-local field's value is turned from UTC into
// local time, and each field's zone offset for its own date is sent with the form (without this
// script the server reads the fields as UTC, and the form says so). The teacher's report reloads
// itself every few seconds while the assignment is open, and a player's waiting page opens the
// assignment when it opens.
(function () {
  'use strict';
  var lang = document.documentElement.lang || 'en';
  var format = null;
  try { format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }); } catch (e) { format = null; }

  function localTimes(root) {
    if (!format) return;
    root.querySelectorAll('time[data-local]').forEach(function (element) {
      var when = Date.parse(element.getAttribute('datetime'));
      if (isNaN(when)) return;
      if (!element.title) element.title = element.textContent;
      element.textContent = format.format(new Date(when));
    });
  }

  function two(n) { return (n < 10 ? '0' : '') + n; }
  function localValue(date) {
    return date.getFullYear() + '-' + two(date.getMonth() + 1) + '-' + two(date.getDate()) + 'T' + two(date.getHours()) + ':' + two(date.getMinutes());
  }

  document.querySelectorAll('form.local-times').forEach(function (form) {
    var offsets = form.querySelectorAll('input[data-offset-for]');
    offsets.forEach(function (hidden) {
      var field = document.getElementById(hidden.getAttribute('data-offset-for'));
      // A fresh form holds UTC: shown in local time. A form sent back holds what was typed.
      if (!field || form.hasAttribute('data-typed') || !field.value) return;
      var utc = Date.parse(field.value + ':00Z');
      if (!isNaN(utc)) field.value = localValue(new Date(utc));
    });
    form.querySelectorAll('.zone-utc').forEach(function (element) { element.hidden = true; });
    form.querySelectorAll('.zone-local').forEach(function (element) { element.hidden = false; });
    form.addEventListener('submit', function () {
      offsets.forEach(function (hidden) {
        var field = document.getElementById(hidden.getAttribute('data-offset-for'));
        if (!field || !field.value) return;
        var local = new Date(field.value);  // a date and time without a zone: local time
        if (!isNaN(local.getTime())) hidden.value = String(local.getTimezoneOffset());
      });
    });
  });

  localTimes(document);

  var report = document.getElementById('report');
  var seconds = report ? parseInt(report.getAttribute('data-refresh'), 10) : NaN;
  if (report && seconds > 0 && window.fetch && window.DOMParser) {
    var refresh = function () {
      if (document.hidden) return;
      fetch(window.location.pathname, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
        .then(function (response) { return response.ok ? response.text() : null; })
        .then(function (html) {
          if (!html) return;
          var page = new DOMParser().parseFromString(html, 'text/html');
          var fresh = page.getElementById('report');
          var state = page.getElementById('window-state');
          if (fresh) { report.innerHTML = fresh.innerHTML; localTimes(report); }
          var shownState = document.getElementById('window-state');
          if (state && shownState) { shownState.textContent = state.textContent; shownState.className = state.className; }
        })
        .catch(function () { /* the next round tries again */ });
    };
    setInterval(refresh, seconds * 1000);
  }

  var hub = document.querySelector('[data-reload-at]');
  if (hub) {
    var at = parseInt(hub.getAttribute('data-reload-at'), 10);
    // Timers wait at most about 24 days; an hour at a time is plenty.
    if (at > 0) setTimeout(function () { window.location.reload(); }, Math.min(Math.max(0, at - Date.now()) + 1000, 3600 * 1000));
  }
})();
