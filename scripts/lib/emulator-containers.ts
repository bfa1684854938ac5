/**
 * The emulators in containers, for machines with a Docker engine and no Google Cloud CLI. Loaded only
 * there (startEmulators decides), so machines with the CLI never import testcontainers.
 */
export const EMULATOR_IMAGE = "gcr.io/google.com/cloudsdktool/google-cloud-cli:emulators";

export async function startEmulatorContainer(
  kind: "pubsub" | "firestore",
  projectId: string,
): Promise<{ host: string; stop(): Promise<void> }> {
  const { GenericContainer, Wait } = await import("testcontainers");
  const port = 8080;
  const command =
    kind === "pubsub"
      ? ["gcloud", "beta", "emulators", "pubsub", "start", `--host-port=0.0.0.0:${port}`, `--project=${projectId}`]
      : ["gcloud", "emulators", "firestore", "start", `--host-port=0.0.0.0:${port}`, `--project=${projectId}`];
  const container = await new GenericContainer(EMULATOR_IMAGE)
    .withCommand(command)
    .withExposedPorts(port)
    .withWaitStrategy(Wait.forHttp("/", port))
    .withStartupTimeout(120_000)
    .start();
  return {
    host: `${container.getHost()}:${container.getMappedPort(port)}`,
    stop: async () => {
      await container.stop();
    },
  };
}
