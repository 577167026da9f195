// kubeplay embed helper (optional): sizes each kubeplay iframe.
// Include once per page, after or before the iframes:
//   <script src="https://your.site/kubeplay/embed.js" async></script>
//   <iframe data-kubeplay src="https://your.site/kubeplay/?embed=1&scenario=gateway-delete-pod"></iframe>
// Handshake as in H5P's resizer: once a frame has loaded, the page says
// {kubeplay: 1, type: "hello"} to it; the frame answers "ready" and then sends
// {type: "resize", height} whenever its height changes. Messages are accepted only from
// the frame's own window and origin.
//
// The frame is as tall as its content up to about one screen of this page (its content
// then scrolls inside it); a button under it shows the whole playground, and folds it
// back. `data-kubeplay-height="full"` on the iframe always shows all of it.
(function () {
  'use strict';
  if (window.kubeplayEmbed) return;
  var info = new WeakMap(); // frame -> { content, expanded, button }
  function frames() { return document.querySelectorAll('iframe[data-kubeplay]'); }
  function originOf(f) { try { return new URL(f.src, location.href).origin; } catch (e) { return null; } }
  function zh(f) { try { return /^zh/.test(new URL(f.src, location.href).searchParams.get('lang') || document.documentElement.lang || ''); } catch (e) { return false; } }
  // About one screen of the course page, never less than a lesson needs to start.
  function cap() { return Math.max(480, Math.round((window.innerHeight || 800) * 0.9)); }
  function size(f) {
    var s = info.get(f);
    if (!s || !s.content) return;
    var full = f.getAttribute('data-kubeplay-height') === 'full';
    var capped = !full && !s.expanded && s.content > cap();
    f.style.height = Math.ceil(capped ? cap() : s.content) + 'px';
    var b = s.button;
    if (!b) return;
    b.style.display = full || s.content <= cap() ? 'none' : 'block';
    b.textContent = s.expanded
      ? (zh(f) ? '收起 kubeplay' : 'Fold the playground back')
      : (zh(f) ? '展开 kubeplay 的全部内容（' + Math.ceil(s.content) + ' px）' : 'Show the whole playground (' + Math.ceil(s.content) + ' px)');
    b.setAttribute('aria-expanded', String(!!s.expanded));
  }
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || d.kubeplay !== 1) return;
    var list = frames();
    for (var i = 0; i < list.length; i++) {
      var f = list[i];
      if (f.contentWindow !== e.source || originOf(f) !== e.origin) continue;
      if (d.type === 'resize' && typeof d.height === 'number' && d.height > 0 && d.height < 100000) {
        var s = info.get(f);
        if (s) { s.content = d.height; size(f); }
      } else if (d.type === 'ready') {
        f.setAttribute('data-kubeplay-ready', '1');
      }
    }
  });
  function hello(f) {
    var o = originOf(f);
    if (o && f.contentWindow) f.contentWindow.postMessage({ kubeplay: 1, type: 'hello' }, o);
  }
  // Whether the frame's own page is there: a message to the initial about:blank would
  // not reach it (and Chrome reports the origin mismatch on the author's page).
  function loaded(f) {
    var d;
    try { d = f.contentDocument; } catch (e) { return true; }
    if (!d) return true; // another origin's page: it is there
    return d.readyState === 'complete' && d.URL !== 'about:blank';
  }
  function hook(f) {
    if (f.getAttribute('data-kubeplay-hooked')) return;
    f.setAttribute('data-kubeplay-hooked', '1');
    if (!f.style.width) f.style.width = '100%';
    f.style.border = f.style.border || '0';
    f.style.display = f.style.display || 'block';
    var b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('data-kubeplay-expand', '');
    b.style.cssText = 'display:none;margin:4px 0 0 auto;font:inherit;font-size:13px;padding:3px 10px;cursor:pointer';
    var s = { content: 0, expanded: false, button: b };
    info.set(f, s);
    b.addEventListener('click', function () { s.expanded = !s.expanded; size(f); });
    if (f.parentNode) f.parentNode.insertBefore(b, f.nextSibling);
    f.addEventListener('load', function () { hello(f); });
    if (loaded(f)) hello(f);
  }
  function scan() { var l = frames(); for (var i = 0; i < l.length; i++) hook(l[i]); }
  window.addEventListener('resize', function () { var l = frames(); for (var i = 0; i < l.length; i++) size(l[i]); });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
  window.kubeplayEmbed = { scan: scan, version: 1 };
})();
