// sort.js: a table that sorts by any column, for the default theme's
// lists (projects/index, conflicts/index.open, checks/index.open,
// conflicts/index.projects, checks/index.projects and their pages: the
// layout's flag sortable). Without JavaScript the
// page is the table in the order its heading says, and its links lead to
// the other order and the other pages; with it, each column heading is a
// button that sorts the rows of this page by that column (numbers as
// numbers, names numeric-aware: "Project 2" before "Project 10"), again
// for the reverse order, and says so in aria-sort. No library.
(function () {
  'use strict';
  var table = document.querySelector('main table');
  if (!table || !table.tBodies.length || !table.tHead) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  var names = new Intl.Collator(undefined, { numeric: true,
    sensitivity: 'base' });
  function text(row, k) {
    var cell = row.cells[k];
    return cell ? cell.textContent.trim() : '';
  }
  function numeric(k) {
    for (var i = 0; i < body.rows.length; i++)
      if (!/^-?\d+$/.test(text(body.rows[i], k))) return false;
    return true;
  }
  function sort(k, button) {
    var th = heads[k];
    var down = th.getAttribute('aria-sort') === 'ascending';
    var asNumber = numeric(k);
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r.dataset.at = i; });
    rows.sort(function (a, b) {
      var x = text(a, k), y = text(b, k), c;
      c = asNumber ? Number(x) - Number(y) : names.compare(x, y);
      if (down) c = -c;
      return c !== 0 ? c : a.dataset.at - b.dataset.at;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    for (var i = 0; i < heads.length; i++)
      heads[i].removeAttribute('aria-sort');
    th.setAttribute('aria-sort', down ? 'descending' : 'ascending');
    button.focus();
  }
  Array.prototype.forEach.call(heads, function (th, k) {
    var button = document.createElement('button');
    button.type = 'button';
    button.className = 'sort';
    button.textContent = th.textContent;
    button.title = 'Sort this page by ' + th.textContent;
    button.addEventListener('click', function () { sort(k, button); });
    th.textContent = '';
    th.appendChild(button);
  });
})();
