// The question form shows only the chosen kind's fields, and adds choice rows on demand. Without
// this script every kind's fields stay visible, each group under its own heading, and the form
// offers two empty choice rows more than the question has.
(function () {
  'use strict';
  var t = window.QuizboxTexts.t;
  var fill = window.QuizboxTexts.fill;
  var kind = document.getElementById('kind');
  var groups = document.querySelectorAll('.kind-fields');
  if (!kind || !groups.length) return;
  function show() {
    for (var i = 0; i < groups.length; i++) {
      groups[i].hidden = groups[i].getAttribute('data-kinds').split(' ').indexOf(kind.value) < 0;
    }
  }
  kind.addEventListener('change', show);
  show();

  var add = document.getElementById('add-choice');
  if (!add) return;
  var max = Number(add.getAttribute('data-max')) || 10;
  function rows() { return document.querySelectorAll('#choices-fields .choice-row'); }
  function update() { add.hidden = rows().length >= max; }
  add.addEventListener('click', function () {
    var all = rows();
    var last = all[all.length - 1];
    var row = last.cloneNode(true);
    var number = all.length + 1;
    var text = row.querySelector('input[type=text]');
    var box = row.querySelector('input[type=checkbox]');
    text.value = '';
    text.id = 'choice-' + number;
    text.setAttribute('aria-label', fill(t('Choice {number}'), { number: number }));
    box.checked = false;
    box.value = String(number - 1);
    box.setAttribute('aria-label', fill(t('Choice {number} is correct'), { number: number }));
    var credit = row.querySelector('.choice-fraction');
    if (credit) {
      credit.value = '';
      credit.setAttribute('aria-label', fill(t('Choice {number}: credit in percent (optional)'), { number: number }));
    }
    last.parentNode.insertBefore(row, add);
    text.focus();
    update();
  });
  update();
})();
