// The page's translations of its scripts' English texts, which the server puts in
// <script type="application/json" id="script-strings">; without them the texts stay English.
// Loaded before the scripts that use it. Exposes window.QuizboxTexts = { t, fill }.
(function () {
  'use strict';
  var strings = (function () {
    var element = document.getElementById('script-strings');
    try { return element ? JSON.parse(element.textContent) : {}; } catch (e) { return {}; }
  })();
  function t(english) { return strings[english] || english; }
  function fill(text, values) { return text.replace(/\{(\w+)\}/g, function (m, name) { return name in values ? String(values[name]) : m; }); }
  window.QuizboxTexts = { t: t, fill: fill };
})();
