/**
 * Builds the production image from deploy/Dockerfile as the image tests run it
 * (tests/image). `npm test` starts it beside the other checks, so the build overlaps
 * them; the image tests run it again and get every layer from Docker's cache.
 */
import { execFileSync, spawnSync } from "node:child_process";
import path from "node:path";

const testImage = "clinic-site:test";
const root = path.resolve(import.meta.dirname, "..");

if (
  spawnSync("docker", ["image", "inspect", "node:24-bookworm-slim"], { stdio: "ignore" }).status !==
  0
) {
  // scripts/ensure-docker.ts has said why, and fails under CI=true.
  console.log("No Docker engine or base image: the image is not built.");
} else {
  execFileSync(
    "docker",
    [
      "build",
      "--quiet",
      "--network",
      "host",
      "--file",
      "deploy/Dockerfile",
      "--build-arg",
      "SITE_URL=https://www.clinic.example.co.uk",
      "--tag",
      testImage,
      ".",
    ],
    // The legacy builder: Debian's docker.io has no buildx.
    {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, DOCKER_BUILDKIT: "0" },
    },
  );
}
