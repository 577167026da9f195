// kubeplay embed helper (optional): sizes each kubeplay iframe to its content.
// Include once per page, after or before the iframes:
//   <script src="https://your.site/kubeplay/embed.js" async></script>
//   <iframe data-kubeplay src="https://your.site/kubeplay/?embed=1&scenario=gateway-delete-pod"></iframe>
// Handshake as in H5P's resizer: on load the page says {kubeplay: 1, type: "hello"}
// to each frame; the frame answers "ready" and then sends {type: "resize", height}
// whenever its height changes. Messages are accepted only from the frame's own
// window and origin.
(function () {
  'use strict';
  if (window.kubeplayEmbed) return;
  function frames() { return document.querySelectorAll('iframe[data-kubeplay]'); }
  function originOf(f) { try { return new URL(f.src, location.href).origin; } catch (e) { return null; } }
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || d.kubeplay !== 1) return;
    var list = frames();
    for (var i = 0; i < list.length; i++) {
      var f = list[i];
      if (f.contentWindow !== e.source || originOf(f) !== e.origin) continue;
      if (d.type === 'resize' && typeof d.height === 'number' && d.height > 0 && d.height < 100000) {
        f.style.height = Math.ceil(d.height) + 'px';
      } else if (d.type === 'ready') {
        f.setAttribute('data-kubeplay-ready', '1');
      }
    }
  });
  function hello(f) {
    var o = originOf(f);
    if (o && f.contentWindow) f.contentWindow.postMessage({ kubeplay: 1, type: 'hello' }, o);
  }
  function hook(f) {
    if (f.getAttribute('data-kubeplay-hooked')) return;
    f.setAttribute('data-kubeplay-hooked', '1');
    if (!f.style.width) f.style.width = '100%';
    f.style.border = f.style.border || '0';
    f.addEventListener('load', function () { hello(f); });
    hello(f);
  }
  function scan() { var l = frames(); for (var i = 0; i < l.length; i++) hook(l[i]); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan);
  else scan();
  window.kubeplayEmbed = { scan: scan, version: 1 };
})();
