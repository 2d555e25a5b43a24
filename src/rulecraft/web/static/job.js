// A job's page: ask how the work is going (asking keeps it alive), and show the result when it is done.
"use strict";
(function () {
  const job = document.getElementById("job");
  if (!job) return;
  const bar = document.getElementById("job-progress");
  const count = document.getElementById("job-count");
  async function poll() {
    let s;
    try {
      const r = await fetch(`/jobs/${job.dataset.token}/status`, { cache: "no-store" });
      if (!r.ok) { location.reload(); return; }
      s = await r.json();
    } catch (e) { setTimeout(poll, 2000); return; }
    bar.value = s.done;
    count.textContent = `${s.done} of ${s.total}`;
    if (s.finished) location.reload(); else setTimeout(poll, 1000);
  }
  setTimeout(poll, 500);
})();
