import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_VIEWER_DEMO,
  compareLink,
  findingLink,
  resolveViewerBase,
  mapsEmbedLink,
  mapsSearchLink,
  projectMapLink,
  viewerLink,
  viewingFilePath,
} from '@shared/links.js';

describe('viewer links ({viewer}/?id=…, compare mode with referenceId)', () => {
  it('builds {viewer}/?id={publicId}', () => {
    expect(viewerLink('https://viewer.example.org', 'TWR-001')).toBe('https://viewer.example.org/?id=TWR-001');
  });

  it('links one finding with &finding={seq} (the findings report)', () => {
    expect(findingLink('https://viewer.example.org/', 'TWR 1', 3)).toBe('https://viewer.example.org/?id=TWR%201&finding=3');
  });

  it('tolerates a trailing slash on the viewer', () => {
    expect(viewerLink('https://viewer.example.org/', 'TWR-001')).toBe('https://viewer.example.org/?id=TWR-001');
    expect(viewerLink('https://viewer.example.org/app//', 'x')).toBe('https://viewer.example.org/app/?id=x');
  });

  it('URL-encodes the ids', () => {
    expect(viewerLink('https://v.example', 'a b&c=d/é')).toBe('https://v.example/?id=a%20b%26c%3Dd%2F%C3%A9');
  });

  it('builds the compare-mode link', () => {
    expect(compareLink('https://v.example/', 'M 2', 'REF#1')).toBe('https://v.example/?compareMode=true&id=M%202&referenceId=REF%231');
  });
});

describe('maps links (a maps query by lat,lng)', () => {
  it('builds a maps query by lat,lng', () => {
    expect(mapsSearchLink(43.4643, -80.5204)).toBe('https://www.google.com/maps/search/?api=1&query=43.4643,-80.5204');
  });

  it('builds the embed at zoom 14', () => {
    expect(mapsEmbedLink(43.4643, -80.5204)).toBe('https://maps.google.com/maps?q=43.4643,-80.5204&z=14&output=embed');
  });

  it('refuses non-numeric coordinates', () => {
    expect(() => mapsSearchLink(Number.NaN, 1)).toThrow(RangeError);
  });

  it("uses the stored map URL ('View on Map'), else lat/lng ('View on Google Maps'), else nothing", () => {
    expect(projectMapLink({ location: { lat: 1, lng: 2, mapUrl: 'https://maps.app.goo.gl/abc' } })).toEqual({
      href: 'https://maps.app.goo.gl/abc',
      label: 'View on Map',
    });
    expect(projectMapLink({ location: { lat: 1.5, lng: -2, mapUrl: null } })).toEqual({
      href: 'https://www.google.com/maps/search/?api=1&query=1.5,-2',
      label: 'View on Google Maps',
    });
    expect(projectMapLink({ location: { lat: null, lng: null } })).toBeNull();
    expect(projectMapLink({})).toBeNull();
  });

  it('never links a stored javascript: or data: map URL (falls back to lat/lng)', () => {
    expect(projectMapLink({ location: { lat: 1, lng: 2, mapUrl: 'javascript:alert(1)' } })).toEqual({
      href: 'https://www.google.com/maps/search/?api=1&query=1,2',
      label: 'View on Google Maps',
    });
    expect(projectMapLink({ location: { lat: null, lng: null, mapUrl: ' JaVaScRiPt:alert(1)' } })).toBeNull();
    expect(projectMapLink({ location: { lat: null, lng: null, mapUrl: 'data:text/html,x' } })).toBeNull();
  });
});

describe('viewing file (splat path, else glb path)', () => {
  it('prefers the splat', () => {
    expect(viewingFilePath({ files: { splatPath: 'models/u/model.ply', glbPath: 'models/u/model.glb' } })).toBe('models/u/model.ply');
    expect(viewingFilePath({ files: { splatPath: '', glbPath: 'models/u/model.glb' } })).toBe('models/u/model.glb');
    expect(viewingFilePath({ files: {} })).toBeNull();
  });
});

describe('viewer base (an external viewer, else the built-in route)', () => {
  it('uses a configured external viewer, without trailing slashes', () => {
    expect(resolveViewerBase('https://viewer.lab.example/', 'http://127.0.0.1:8787')).toBe('https://viewer.lab.example');
  });
  it('falls back to the portal route /viewer on the given origin', () => {
    expect(resolveViewerBase(null, 'http://127.0.0.1:8787')).toBe('http://127.0.0.1:8787/viewer');
    expect(resolveViewerBase('  ', 'https://catalog.web.app/')).toBe('https://catalog.web.app/viewer');
    expect(viewerLink(resolveViewerBase(null, 'http://h'), 'TWR 1')).toBe('http://h/viewer/?id=TWR%201');
  });
  it('has demo links for the landing cards', () => {
    expect(BUILT_IN_VIEWER_DEMO).toEqual({ splat: '/viewer?demo=splat', compare: '/viewer?compareMode=true&demo=compare' });
  });
});
