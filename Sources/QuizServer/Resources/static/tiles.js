// Number keys pick answer tiles, 1 for the first, as each tile shows; Enter then sends the form
// as usual. Keys typed into a text field are left alone. Without this script the tiles are still
// radio buttons and checkboxes: Tab, the arrow keys and Space work.
(function () {
  'use strict';
  var inputs = document.querySelectorAll('.answer-tiles .tile-input');
  if (!inputs.length) return;
  document.addEventListener('keydown', function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    var target = event.target;
    var typing = target && (target.tagName === 'TEXTAREA' || target.tagName === 'SELECT' ||
      (target.tagName === 'INPUT' && target.type !== 'radio' && target.type !== 'checkbox'));
    if (typing || !/^[1-9]$/.test(event.key)) return;
    var input = inputs[Number(event.key) - 1];
    if (!input) return;
    input.checked = input.type === 'checkbox' ? !input.checked : true;
    input.focus();
    event.preventDefault();
  });
})();
