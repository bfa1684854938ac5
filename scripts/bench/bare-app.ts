import express from "express";

/** The yardstick: a bare Express 5 app that only parses JSON and answers 202. */
const app = express();
app.use(express.json({ limit: "5mb" }));
app.post("/usage/transactions", (_req, res) => {
  res.status(202).json({ status: "queued" });
});
app.listen(Number(process.env.PORT));
// Exits as the gateway does on SIGTERM, so that `--cpu-prof` (BENCH_NODE_FLAGS) writes its profile.
process.on("SIGTERM", () => process.exit(0));
