// The play table's one script: esbuild bundles this entry, the modules it imports and
// theirs into static/dist/table.js (make bundle), so the page loads one file, not 24.
// The order is the page's: the site's menu and language switch first, then the board.
import "../menu.js";
import "../lang-switch.js";
import "../board/main.js";
// A ranked table's "closes in" (a no-op on the other tables).
import "../countdown.js";
