// Builds the table into web/dist: assets/app-<hash>.js and .css (esbuild, minified), and
// index.html naming them. Run by `npm run build` (after `tsc --noEmit`), i.e. `make client`.
// Old hashed assets are removed so that web/dist holds exactly one build; faces/ is left to
// tools/faces.py.
import { build } from "esbuild";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const assets = join(dist, "assets");

await rm(assets, { recursive: true, force: true });
await mkdir(assets, { recursive: true });

const result = await build({
  entryPoints: { app: join(here, "src", "main.ts") },
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020", "chrome100", "safari15"],
  outdir: assets,
  entryNames: "[name]-[hash]",
  metafile: true,
  legalComments: "none",
  logLevel: "warning",
});

const outputs = Object.keys(result.metafile.outputs).map((p) => p.split("/").pop());
const js = outputs.find((n) => n.endsWith(".js"));
const css = outputs.find((n) => n.endsWith(".css"));
if (!js || !css) throw new Error(`esbuild wrote ${outputs.join(", ")}: no js or css`);

const template = await readFile(join(here, "src", "index.html"), "utf8");
const html = template.replace("{{css}}", `assets/${css}`).replace("{{js}}", `assets/${js}`);
await writeFile(join(dist, "index.html"), html);

const sizes = await Promise.all(
  (await readdir(assets)).map(async (n) => `${n} ${(await readFile(join(assets, n))).length} B`),
);
console.log(`web/dist: index.html, ${sizes.join(", ")}`);
