// Loaded with `node --import` into the functions the local stack runs (the cost worker and the webhook
// delivery): the functions framework listens on every interface and takes no address to listen on, so a
// server asked to listen on a port alone listens on 127.0.0.1 instead. Pub/Sub's emulator and the gateway
// reach them there; nothing on the network can. Plain Node, so it also runs before the built bundles.
import net from "node:net";

const listen = net.Server.prototype.listen;
const isPort = (value) => typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value));

net.Server.prototype.listen = function listenOnLoopback(...args) {
  if (isPort(args[0]) && typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
