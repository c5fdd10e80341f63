// The offline page goes back to the site as soon as the browser is online again.
window.addEventListener("online", () => location.replace("/"));
