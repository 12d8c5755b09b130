// storage.rules: writes under models/{uuid}/ hold the layout's names and content types (model
// files their kind's type, photos and thumbnails a photo extension with the image type it names,
// assets never a type a browser runs, a change map's values `.bin` as binary). The Storage emulator cannot evaluate rules here: its rules
// runtime is a jar that firebase-tools downloads from Google on first use, and this machine cannot
// reach it. The Firestore emulator runs the same rules language, so this file (1) compiles
// storage.rules there (only the cross-service `firestore.*` calls are unknown to it) and (2)
// evaluates the write conditions of storage.rules, copied out of the file verbatim, with
// `request.resource.contentType` read from a probe document and `isAdmin()` taken as true. What
// it cannot show is which `match` applies to which path (Storage's own matcher).
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';

setLogLevel('error');

const STORAGE_RULES = readFileSync('storage.rules', 'utf8');

/** The text of `function name(…) { … }` in storage.rules (braces balanced). */
function functionText(name: string): string {
  const start = STORAGE_RULES.indexOf(`function ${name}(`);
  if (start < 0) throw new Error(`storage.rules has no function ${name}`);
  let depth = 0;
  for (let i = STORAGE_RULES.indexOf('{', start); i < STORAGE_RULES.length; i += 1) {
    if (STORAGE_RULES[i] === '{') depth += 1;
    if (STORAGE_RULES[i] === '}' && --depth === 0) return STORAGE_RULES.slice(start, i + 1);
  }
  throw new Error(`function ${name} is not closed`);
}

/** The `allow create, update` condition of the `match` block that starts with `header`. */
function writeCondition(header: string): string {
  const at = STORAGE_RULES.indexOf(header);
  const match = /allow create, update: if ([\s\S]*?);\n/.exec(STORAGE_RULES.slice(at));
  if (at < 0 || match === null) throw new Error(`storage.rules has no write rule under ${header}`);
  return match[1]!.replace(/isAdmin\(\)/g, 'true');
}

/** A Firestore ruleset that evaluates storage.rules' write conditions for a probe document {folder, name, contentType}. */
function probeRules(): string {
  const functions = ['uploadedType', 'modelFileUpload', 'imageUpload', 'assetUpload', 'changeValuesUpload']
    .map(functionText)
    .join('\n')
    .replace(/request\.resource\.contentType/g, 'request.resource.data.contentType');
  return `rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    ${functions}
    function fileRule(name) { return ${writeCondition('match /models/{uuid}/{name} {')}; }
    function folderRule(folder, name) { return ${writeCondition('match /models/{uuid}/{folder}/{name} {')}; }
    match /probe/{id} {
      allow create: if (request.resource.data.folder == '' && fileRule(request.resource.data.name))
        || (request.resource.data.folder != '' && folderRule(request.resource.data.folder, request.resource.data.name));
    }
  }
}`;
}

describe('storage.rules: upload names and content types (on the Firestore emulator’s rules engine)', () => {
  let env: RulesTestEnvironment;
  let firestore: FirestoreEmulatorHandle;

  beforeAll(async () => {
    firestore = await startFirestoreEmulator();
    const [host, port] = firestore.host.split(':');
    env = await initializeTestEnvironment({
      projectId: 'demo-storage-rules',
      firestore: { rules: probeRules(), host: host ?? '127.0.0.1', port: Number(port) },
    });
  });

  afterAll(async () => {
    await env?.cleanup();
    await firestore?.stop();
  });

  it('compiles: the only issues are the cross-service firestore.* calls the Firestore engine does not know', async () => {
    const response = await fetch(`http://${firestore.host}/emulator/v1/projects/demo-storage-compile:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: { files: [{ name: 'storage.rules', content: STORAGE_RULES }] } }),
    });
    const body = (await response.json()) as { issues?: Array<{ description: string; severity: string }> };
    expect(response.status, JSON.stringify(body)).toBe(200);
    const unexpected = (body.issues ?? []).filter(
      (issue) =>
        issue.severity !== 'WARNING' ||
        !/^(Invalid variable name: firestore\.|Invalid function name: (exists|get)\.|Incorrect number of arguments supplied to function: get\.)$/.test(
          issue.description,
        ),
    );
    expect(unexpected).toEqual([]);
    // and a broken file is refused, so the check above means something
    const broken = await fetch(`http://${firestore.host}/emulator/v1/projects/demo-storage-compile:securityRules`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: { files: [{ name: 'storage.rules', content: STORAGE_RULES.replace('let ext', 'lett ext') }] } }),
    });
    expect(broken.status).toBe(400);
  });

  const write = (folder: string, name: string, contentType: string) =>
    env.unauthenticatedContext().firestore().collection('probe').add({ folder, name, contentType });

  it.each([
    ['', 'model.ply', 'application/octet-stream'],
    ['', 'model.splat', 'application/octet-stream'],
    ['', 'model.spz', 'application/octet-stream'],
    ['', 'model.preview.spz', 'application/octet-stream'],
    ['', 'model.glb', 'model/gltf-binary'],
    ['', 'model.web.glb', 'model/gltf-binary'],
    ['', 'camera-metadata.json', 'application/json'],
    ['', 'camera-metadata.json', 'application/json; charset=utf-8'],
    ['images', 'a.jpg', 'image/jpeg'],
    ['images', 'IMG_0001.JPG', 'image/jpeg'],
    ['images', 'a.jpeg', 'image/jpeg'],
    ['images', 'a.tif', 'image/tiff'],
    ['images', 'b.png', 'image/png'],
    ['images', 'c.bmp', 'image/bmp'],
    ['images_thumbnails', 'thumbnail.jpg', 'image/jpeg'],
    ['images_thumbnails', 't.webp', 'image/webp'],
    ['assets', 'notes.txt', 'text/plain'],
    ['assets', 'page.html', 'application/octet-stream'],
    ['assets', 'report.pdf', 'application/pdf'],
    ['changes', '6f1c2a9e-0b7d-4c39-9a55-1e2f3a4b5c6d.bin', 'application/octet-stream'],
  ])('allows %s/%s as %s', async (folder, name, type) => {
    await assertSucceeds(write(folder, name, type));
  });

  it.each([
    ['', 'model.ply', 'text/html'],
    ['', 'model.glb', 'application/octet-stream'],
    ['', 'model.spz', 'image/svg+xml'],
    ['', 'model.preview.spz', 'text/html'],
    ['', 'model.web.glb', 'text/html'],
    ['', 'camera-metadata.json', 'text/html'],
    ['', 'index.html', 'text/html'],
    ['', 'model.obj', 'application/octet-stream'],
    ['images', 'a.html', 'text/html'],
    ['images', 'a.html', 'image/png'],
    ['images', 'a.svg', 'image/svg+xml'],
    ['images', 'a.png', 'text/html'],
    ['images', 'a.png', 'image/jpeg'],
    ['images', 'a.heic', 'image/heic'],
    ['images', 'png', 'image/png'],
    ['images', 'a.jpg', 'application/octet-stream'],
    ['images_thumbnails', 't.htm', 'text/html'],
    ['images_thumbnails', 't.svg', 'image/svg+xml'],
    ['assets', 'page.html', 'text/html'],
    ['assets', 'page.html', 'TEXT/HTML; charset=utf-8'],
    ['assets', 'icon.svg', 'image/svg+xml'],
    ['assets', 'a.xhtml', 'application/xhtml+xml'],
    ['assets', 'app.js', 'text/javascript'],
    ['assets', 'feed.rss', 'application/rss+xml'],
    ['secrets', 'a.jpg', 'image/jpeg'],
    ['changes', 'ref.bin', 'text/html'],
    ['changes', 'ref.html', 'application/octet-stream'],
    ['changes', '.bin', 'application/octet-stream'],
  ])('refuses %s/%s as %s', async (folder, name, type) => {
    await assertFails(write(folder, name, type));
  });
});
