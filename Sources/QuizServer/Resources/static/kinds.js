// The question kinds with parts, made easier than their plain form fields, which work without
// this script: an ordering gets Move up / Move down buttons that keep each item's place select
// right; an estimate gets a slider beside its number field.
(function () {
  'use strict';
  var texts = window.QuizboxTexts || { t: function (s) { return s; }, fill: function (s) { return s; } };
  var t = texts.t;

  var list = document.getElementById('order-list');
  if (list) {
    var renumber = function () {
      var items = list.querySelectorAll('.order-item');
      for (var i = 0; i < items.length; i++) items[i].querySelector('select').value = String(i + 1);
    };
    var move = function (item, step, button) {
      var other = step < 0 ? item.previousElementSibling : item.nextElementSibling;
      if (!other) return;
      if (step < 0) list.insertBefore(item, other); else list.insertBefore(other, item);
      renumber();
      button.focus();
    };
    // Choosing a place in a select moves the item there, so the list always shows the order sent.
    list.addEventListener('change', function (event) {
      var select = event.target;
      if (select.tagName !== 'SELECT') return;
      var item = select.closest('.order-item');
      var items = Array.prototype.slice.call(list.querySelectorAll('.order-item'));
      var place = Number(select.value) - 1;
      items.splice(items.indexOf(item), 1);
      items.splice(place, 0, item);
      items.forEach(function (each) { list.appendChild(each); });
      renumber();
      select.focus();
    });
    Array.prototype.forEach.call(list.querySelectorAll('.order-item'), function (item) {
      var text = item.querySelector('.order-text').textContent;
      var buttons = document.createElement('span');
      buttons.className = 'order-moves';
      [['↑', t('Move “{item}” up'), -1], ['↓', t('Move “{item}” down'), 1]].forEach(function (spec) {
        var button = document.createElement('button');
        button.type = 'button';
        button.className = 'order-move';
        button.textContent = spec[0];
        button.setAttribute('aria-label', texts.fill(spec[1], { item: text }));
        button.addEventListener('click', function () { move(item, spec[2], button); });
        buttons.appendChild(button);
      });
      item.appendChild(buttons);
    });
  }

  var slider = document.getElementById('estimate-slider');
  var number = document.getElementById('answer-number');
  if (slider && number) {
    slider.hidden = false;
    slider.addEventListener('input', function () { number.value = slider.value; });
    number.addEventListener('input', function () { if (number.value !== '') slider.value = number.value; });
  }
})();
