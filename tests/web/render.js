// Rendering helpers for the unit tests: a component into a fresh container, effects flushed.
// the client's own (vendored) Preact: the components and the renderer must be one instance
import { render } from "../../qipai/web/vendor/preact.module.js";

/** Render `vnode` into a new container in the document (or again into `into`) and return the container. */
export function mount(vnode, into) {
  const root = into || document.createElement("div");
  if (!into) document.body.append(root);
  render(vnode, root);
  return root;
}

/** Unmount and remove every container. */
export function cleanup() {
  for (const el of [...document.body.children]) {
    render(null, el);
    el.remove();
  }
}

/** Visible text nodes of `root` (happy-dom has no layout: "visible" = not inside [hidden]). */
export function texts(root) {
  const out = [];
  const walk = document.createTreeWalker(root, 4);
  while (walk.nextNode()) {
    const n = walk.currentNode;
    if (n.parentElement && n.parentElement.closest("[hidden], title, style, script")) continue;
    const s = n.textContent.trim();
    if (s) out.push(s);
  }
  return out;
}
