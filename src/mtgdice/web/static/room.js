// Live room updates: one websocket per room page. The server sends JSON messages
// {kind, html, ...} whose html is a fragment rendered (and escaped) by the server's templates.
// Fragments are parsed with DOMParser (inert: no script runs) and moved into the page;
// nothing here builds HTML from strings.
(function () {
  "use strict";
  var body = document.body;
  // An error banner answers the action that caused it: the next action clears it.
  body.addEventListener("htmx:beforeRequest", function () {
    var flash = document.getElementById("flash");
    if (flash) { flash.replaceChildren(); }
  });
  var room = body.dataset.room;
  var me = body.dataset.player;
  if (!room) { return; }

  function nodes(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    return Array.prototype.slice.call(doc.body.childNodes);
  }

  function activate(element) {
    if (window.htmx && element && element.nodeType === 1) { window.htmx.process(element); }
  }

  function prepend(selector, html) {
    var target = document.querySelector(selector);
    if (!target) { return; }
    var fresh = nodes(html);
    for (var i = fresh.length - 1; i >= 0; i--) { target.prepend(fresh[i]); activate(fresh[i]); }
  }

  function replace(selector, html) {
    var target = document.querySelector(selector);
    if (!target) { return; }
    target.replaceChildren.apply(target, nodes(html));
    activate(target);
  }

  // A reveal ends every player's client seed (the next server seed was drawn after they were
  // known); when the page sees a new commitment it adds a fresh random seed of this player's.
  function commitmentShown() {
    var code = document.querySelector("#status [data-testid=commitment]");
    return code ? code.textContent.trim() : "";
  }
  var seenCommitment = commitmentShown();
  function seedForNewCommitment() {
    var shown = commitmentShown();
    if (!shown || shown === seenCommitment) { return; }
    seenCommitment = shown;
    if (!me || !window.crypto || !window.htmx) { return; }
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    var seed = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    window.htmx.ajax("POST", "/r/" + encodeURIComponent(room) + "/seed",
                     {target: "#status", swap: "innerHTML", values: {client_seed: seed}});
  }
  body.addEventListener("htmx:afterSwap", seedForNewCommitment);

  function status(text, state) {
    var live = document.getElementById("live");
    if (live) { live.textContent = text; }
    body.dataset.ws = state;
  }

  function connect() {
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + location.host + "/ws/rooms/" + encodeURIComponent(room));
    socket.onopen = function () { status("live", "open"); };
    socket.onmessage = function (event) {
      var message;
      try { message = JSON.parse(event.data); } catch (error) { return; }
      if (message.kind === "roll") {
        if (document.getElementById("roll-" + message.id)) { return; }
        prepend("#history", message.html);
      } else if (message.kind === "table") {
        replace("#table", message.html);
      } else if (message.kind === "status") {
        replace("#status", message.html);
        seedForNewCommitment();
      } else if (message.kind === "question" && message.player === me && window.htmx) {
        window.htmx.ajax("GET", "/r/" + encodeURIComponent(room) + "/question", {target: "#question", swap: "innerHTML"});
      }
    };
    // A ping every 30 s: the server closes a socket whose client says nothing for 2 minutes.
    var pinger = setInterval(function () { if (socket.readyState === 1) { socket.send("ping"); } }, 30000);
    socket.onclose = function () {
      clearInterval(pinger);
      status("reconnecting\u2026", "closed");
      setTimeout(connect, 1000);
    };
  }

  connect();
})();
