// The console's one script (served from /console/assets/, allowed by the page's CSP): relative
// times, decision buttons that close at expiry, and live refresh from /console/events.
// Pages work without it; it only keeps them current.
(function () {
  'use strict';

  function seconds(ms) {
    var s = Math.round(Math.abs(ms) / 1000);
    if (s < 90) return s + ' s';
    if (s < 5400) return Math.round(s / 60) + ' min';
    return Math.round(s / 3600) + ' h';
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll('[data-since]').forEach(function (el) {
      el.textContent = seconds(now - Number(el.getAttribute('data-since')));
    });
    document.querySelectorAll('[data-until]').forEach(function (el) {
      var left = Number(el.getAttribute('data-until')) - now;
      el.textContent = left > 0 ? 'in ' + seconds(left) : 'expired ' + seconds(left) + ' ago';
    });
    document.querySelectorAll('form.decide[data-expires]').forEach(function (form) {
      if (Number(form.getAttribute('data-expires')) > now || form.classList.contains('closed')) return;
      form.classList.add('closed');
      form.querySelectorAll('button').forEach(function (button) {
        button.disabled = true;
      });
      var note = document.createElement('p');
      note.className = 'notice error';
      note.setAttribute('role', 'status');
      note.textContent = 'This call has expired; it can no longer be approved.';
      form.appendChild(note);
    });
  }

  // Replaces a region with the server's fresh rendering, keeping any reason being typed.
  function refresh(targetId, url) {
    var target = document.getElementById(targetId);
    if (!target) return;
    fetch(url, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (markup) {
        var typed = {};
        target.querySelectorAll('input[name="reason"]').forEach(function (input) {
          if (input.value !== '') typed[input.id] = input.value;
        });
        var focused =
          document.activeElement && target.contains(document.activeElement) ? document.activeElement.id : '';
        target.innerHTML = markup;
        Object.keys(typed).forEach(function (id) {
          var input = document.getElementById(id);
          if (input) input.value = typed[id];
        });
        if (focused) {
          var again = document.getElementById(focused);
          if (again) again.focus();
        }
        tick();
      })
      .catch(function () {
        status('Could not refresh; reload the page.');
      });
  }

  function status(text) {
    var el = document.getElementById('live-status');
    if (el) el.textContent = text;
  }

  function live(kind) {
    if (!window.EventSource) return;
    var source = new EventSource('/console/events');
    var refreshAll = function () {
      if (kind === 'activity') refresh('activity-rows', '/console/activity?fragment=1');
      if (kind === 'approvals') refresh('held-list', '/console/approvals?fragment=1');
      if (kind.indexOf('approval:') === 0) {
        var id = kind.slice('approval:'.length);
        refresh('held-detail', '/console/approvals/' + encodeURIComponent(id) + '?fragment=1');
      }
    };
    source.addEventListener('open', function () {
      status('Live: this page updates by itself.');
      // Catch up with what happened between the page's rendering (or a lost stream) and now.
      refreshAll();
    });
    source.addEventListener('error', function () {
      status('Reconnecting…');
    });
    source.addEventListener('approvals', function (message) {
      var data = {};
      try {
        data = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      if (kind === 'approvals' || kind === 'approval:' + data.id) refreshAll();
    });
    // Calls and lookups reach the audit a moment after their events: one reload per burst.
    var pending = null;
    var auditChanged = function () {
      if (kind !== 'activity' || pending !== null) return;
      pending = setTimeout(function () {
        pending = null;
        refreshAll();
      }, 300);
    };
    source.addEventListener('activity', auditChanged);
    source.addEventListener('audit', auditChanged);
  }

  document.addEventListener('DOMContentLoaded', function () {
    tick();
    setInterval(tick, 1000);
    var kind = document.body.getAttribute('data-live');
    if (kind) live(kind);
  });
})();
