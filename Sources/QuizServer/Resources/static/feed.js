// Loads the next page of the feed when its "More" link comes into view. Without this script the
// link still works: it opens the next page.
(function () {
  'use strict';
  var list = document.getElementById('feed-items');
  var more = document.getElementById('feed-more');
  if (!list || !more || !('IntersectionObserver' in window) || !window.fetch) return;
  var loading = false;
  var observer = new IntersectionObserver(function (entries) {
    if (!entries.some(function (entry) { return entry.isIntersecting; }) || loading) return;
    loading = true;
    var next = more.getAttribute('href');
    fetch(next + '&fragment=1', { credentials: 'same-origin', headers: { 'Accept': 'text/html' } })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        var following = response.headers.get('Quizbox-Next-Page');
        return response.text().then(function (html) { return { html: html, next: following }; });
      })
      .then(function (page) {
        // The server escapes every user's text; this is its own markup.
        list.insertAdjacentHTML('beforeend', page.html);
        if (page.next) {
          more.setAttribute('href', page.next);
          // Observing again reports at once whether the link is still in view (a short page).
          observer.unobserve(more);
          observer.observe(more);
        } else {
          observer.disconnect();
          more.parentNode.removeChild(more);
        }
        loading = false;
      })
      .catch(function () {
        // Leave the link: a click still loads the next page.
        observer.disconnect();
      });
  }, { rootMargin: '400px 0px' });
  observer.observe(more);
})();
