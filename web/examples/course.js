// Fits each embedded explainer step to its content: the step posts
// { type: 'posenc:height', step, height } whenever its height changes.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'posenc:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe[data-posenc]')) {
    if (frame.contentWindow === event.source) {
      frame.height = String(Math.ceil(data.height));
      frame.dataset.reportedHeight = String(data.height);
    }
  }
});
