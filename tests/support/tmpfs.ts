import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A small RAM file system as a server's data directory, for the fault tests: it
 * fills up for real (ENOSPC, as a full disk does) and can be grown back. Mounting
 * needs root (CI runs as root); `mountTmpfs` says why when it cannot mount.
 */
export type Tmpfs = {
  dir: string;
  /** Grows (or shrinks) the file system in place; open files stay open. */
  resize(size: string): void;
  unmount(): void;
};

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr.trim()}`,
    );
  }
}

export function mountTmpfs(size: string): Tmpfs | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: "mounting a tmpfs needs root" };
  const dir = mkdtempSync(path.join(tmpdir(), "clinic-tmpfs-"));
  try {
    run("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { unavailable: (error as Error).message };
  }
  return {
    dir,
    resize: (newSize) => run("mount", ["-o", `remount,size=${newSize}`, dir]),
    unmount() {
      run("umount", [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A data directory that can be made read-only under a running server. A read-only
 * remount is refused while the database files are open for writing (the kernel
 * answers EBUSY), so the directory and its files are made immutable instead
 * (chattr +i, root only): on ext4 and xfs, writes through files already open then
 * fail with EPERM, as through a read-only mount. tmpfs does not refuse them, so the
 * directory lives on disk (/var/tmp), and a probe checks that the refusal happens.
 */
export type LockableDir = {
  dir: string;
  setReadOnly(on: boolean): void;
  remove(): void;
};

export function lockableDir(): LockableDir | { unavailable: string } {
  if (process.getuid?.() !== 0) return { unavailable: "chattr +i needs root" };
  const dir = mkdtempSync(path.join("/var/tmp", "clinic-readonly-"));
  const remove = () => {
    spawnSync("chattr", ["-R", "-i", dir]);
    rmSync(dir, { recursive: true, force: true });
  };
  const chattr = (flag: string) => {
    // SQLite maps its -shm index into memory: a write fault there is SIGBUS, which kills
    // any process (a real read-only remount does the same once the page is written
    // back). That hazard is the kernel's, not a refusal to answer, so the index stays
    // writable and the database, its WAL and the directory are locked.
    const entries = readdirSync(dir)
      .filter((name) => !name.endsWith("-shm"))
      .map((name) => path.join(dir, name));
    // The directory last when locking (its files must still be reachable), first when unlocking.
    const targets = flag === "+i" ? [...entries, dir] : [dir, ...entries];
    for (const target of targets) run("chattr", [flag, target]);
  };
  // Does this file system refuse writes through an open file once it is immutable?
  const probe = path.join(dir, "probe");
  const fd = openSync(probe, "w");
  try {
    run("chattr", ["+i", probe]);
    try {
      writeSync(fd, "x");
      remove();
      return { unavailable: "this file system ignores chattr +i for open files" };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EPERM") throw error;
    }
  } catch (error) {
    remove();
    return { unavailable: (error as Error).message };
  } finally {
    closeSync(fd);
  }
  run("chattr", ["-i", probe]);
  rmSync(probe);
  return { dir, setReadOnly: (on) => chattr(on ? "+i" : "-i"), remove };
}
