// The duel pages' one script (make bundle -> static/dist/duel.js): the duel's panel and
// the queue's page, and the arena page's live table. The table page loads it beside
// table.js (the board); the site's menu is table.js's there and base.html's elsewhere, so
// it is not in here.
import "../duel/main.js";
import "../duel/queue.js";
import "../arena/main.js";
