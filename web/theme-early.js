// The theme before the first paint. A classic script, loaded blocking from <head> ahead of the
// stylesheets: the module scripts run only after the page is parsed, so without it a stored
// theme that differs from the system's shows the system's palette for a frame. It does what
// theme.js's initialTheme and applyTheme do (the same key, the same ?theme= override); the
// modules apply the theme again when they start, and own the switch.
(function () {
  var theme = null;
  try {
    theme = new URLSearchParams(location.search).get('theme');
    if (theme !== 'light' && theme !== 'dark' && theme !== 'system') theme = localStorage.getItem('posenc-theme');
  } catch (e) {
    // storage blocked (privacy settings, sandboxed iframe): follow the system
  }
  if (theme === 'light' || theme === 'dark') document.documentElement.setAttribute('data-theme', theme);
})();
