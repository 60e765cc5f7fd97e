// The goose view's script (loaded under the view's Content-Security-Policy nonce): puts the body the
// extension renders in place, keeping which tool calls are open, the focus and the scroll position, focuses
// a new approval or parameters form, and sends button presses back to the extension.
(function () {
  const vscode = acquireVsCodeApi();
  const root = document.getElementById("goose-root");
  let lastApproval = "";
  let hadForm = false;

  window.addEventListener("message", (e) => {
    const m = e.data;
    if (!m || m.type !== "render") return;
    const open = new Set([...root.querySelectorAll("details[open][id]")].map((d) => d.id));
    const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest("button,summary") : null;
    const focusKey = focused ? focused.outerHTML : "";
    const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 24;
    // what the user typed into the parameters form survives re-renders while a run streams
    const typed = new Map([...root.querySelectorAll("#params-form [name]")].map((el) => [el.name, el.value]));
    root.innerHTML = m.html;
    for (const el of root.querySelectorAll("#params-form [name]")) if (typed.has(el.name)) el.value = typed.get(el.name);
    for (const d of root.querySelectorAll("details[id]")) if (open.has(d.id)) d.open = true;
    const approval = root.querySelector(".approval button");
    const approvalKey = approval ? approval.getAttribute("data-id") : "";
    if (approval && approvalKey !== lastApproval) {
      approval.focus();
      approval.scrollIntoView({ block: "nearest" });
    } else if (focusKey) {
      const again = [...root.querySelectorAll("button,summary")].find((el) => el.outerHTML === focusKey);
      if (again) again.focus();
    }
    lastApproval = approvalKey || "";
    const form = root.querySelector("#params-form");
    if (form && !hadForm) form.querySelector("[name]")?.focus();
    hadForm = !!form;
    if (atBottom && !approval) window.scrollTo(0, document.body.scrollHeight);
  });

  root.addEventListener("click", (e) => {
    const b = e.target.closest("button[data-action]");
    if (!b) return;
    const msg = Object.assign({}, b.dataset);
    const form = b.dataset.form ? document.getElementById(b.dataset.form) : null;
    if (form) msg.values = Object.fromEntries([...form.querySelectorAll("[name]")].map((el) => [el.name, el.value]));
    vscode.postMessage(msg);
  });

  // messages posted before this script ran are lost: ask for the current state
  vscode.postMessage({ action: "ready" });
})();
