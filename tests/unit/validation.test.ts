import { describe, expect, it } from 'vitest';
import { validateSignIn } from '@shared/validation/sign-in.js';
import { validateAddModel, validateEditModel, validateListUpload } from '@shared/validation/models.js';
import { parseCoordinate, projectFormInputOf, validateProjectForm } from '@shared/validation/project-form.js';
import { validateRegisterUser, validateSetAdmin } from '@shared/validation/users.js';
import { confirmTypedName, validateModelDeleteConfirmation, validateProjectDeleteConfirmation } from '@shared/validation/confirm.js';
import type { ModelType } from '@shared/types.js';

const fail = (message: string) => ({ ok: false, message });
const passes = <T>(value: T) => ({ ok: true, value });

describe('validateSignIn (the sign-in form)', () => {
  it('requires both fields', () => {
    expect(validateSignIn({ email: '', password: 'secret1' })).toEqual(fail('Please enter both email and password.'));
    expect(validateSignIn({ email: 'a@lab.org', password: '' })).toEqual(fail('Please enter both email and password.'));
  });

  it("requires an email-formatted email ('Invalid email format.')", () => {
    expect(validateSignIn({ email: 'not-an-email', password: 'x' })).toEqual(fail('Invalid email format.'));
    expect(validateSignIn({ email: 'a@b', password: 'x' })).toEqual(fail('Invalid email format.'));
  });

  it('trims the email and keeps the password as typed', () => {
    expect(validateSignIn({ email: '  inspector@lab.org ', password: ' pw ' })).toEqual(
      passes({ email: 'inspector@lab.org', password: ' pw ' }),
    );
  });
});

describe('validateListUpload (upload from the model list screen)', () => {
  it("needs a splat or a glb first: 'At least one file (splat or glb) is required.'", () => {
    expect(validateListUpload({ publicId: '', name: '', hasSplat: false, hasGlb: false })).toEqual(
      fail('At least one file (splat or glb) is required.'),
    );
  });

  it("then publicId and name: 'Please enter publicId and name.'", () => {
    expect(validateListUpload({ publicId: ' ', name: 'Tower', hasSplat: true, hasGlb: false })).toEqual(
      fail('Please enter publicId and name.'),
    );
    expect(validateListUpload({ publicId: 'T-1', name: '', hasSplat: false, hasGlb: true })).toEqual(
      fail('Please enter publicId and name.'),
    );
  });

  it('passes with one file and both fields, the Public ID trimmed', () => {
    expect(validateListUpload({ publicId: ' T-1 ', name: ' Tower ', hasSplat: false, hasGlb: true })).toEqual(
      passes({ publicId: 'T-1', name: 'Tower' }),
    );
  });

  it("then the Public ID's characters, as in Edit (the same rule on every create path)", () => {
    expect(validateListUpload({ publicId: 'BAD PUB/ID <b>x</b>', name: 'Tower', hasSplat: true, hasGlb: false })).toEqual(
      fail('Public ID can only contain letters, numbers, hyphens, and underscores'),
    );
  });
});

describe('validateAddModel (the Add model form)', () => {
  const base = { publicId: 'TWR-001-2025', name: 'Spring flight' };
  const missing = fail('Required file types are missing based on the selected model type.');

  it.each<[ModelType, boolean, boolean, boolean]>([
    ['splat', true, false, true],
    ['splat', false, true, false],
    ['mesh', false, true, true],
    ['mesh', true, false, false],
    ['hybrid', true, true, true],
    ['hybrid', true, false, true],
    ['hybrid', false, true, true],
    ['hybrid', false, false, false],
  ])('%s with splat=%s glb=%s → ok %s', (modelType, hasSplat, hasGlb, ok) => {
    const result = validateAddModel({ ...base, modelType, hasSplat, hasGlb });
    expect(result).toEqual(ok ? { ok: true, value: { ...base, modelType } } : missing);
  });

  it("requires Public ID and Model Name: 'Please enter Public ID and Model Name.'", () => {
    expect(validateAddModel({ publicId: '', name: 'x', modelType: 'mesh', hasSplat: false, hasGlb: true })).toEqual(
      fail('Please enter Public ID and Model Name.'),
    );
    expect(validateAddModel({ publicId: 'x', name: '  ', modelType: 'mesh', hasSplat: false, hasGlb: true })).toEqual(
      fail('Please enter Public ID and Model Name.'),
    );
  });

  it("then the Public ID's characters, as in Edit", () => {
    expect(validateAddModel({ ...base, publicId: 'BAD PUB/ID <b>x</b>', modelType: 'mesh', hasSplat: false, hasGlb: true })).toEqual(
      fail('Public ID can only contain letters, numbers, hyphens, and underscores'),
    );
  });

  it('refuses an unknown model type', () => {
    expect(validateAddModel({ ...base, modelType: 'cloud' as ModelType, hasSplat: true, hasGlb: true }).ok).toBe(false);
  });
});

describe('validateEditModel (the Edit model form)', () => {
  it("'Model name is required'", () => {
    expect(validateEditModel({ name: ' ', publicId: 'x', captureDate: '' })).toEqual(fail('Model name is required'));
  });

  it("'Public ID is required'", () => {
    expect(validateEditModel({ name: 'n', publicId: '', captureDate: '' })).toEqual(fail('Public ID is required'));
  });

  it("'Public ID can only contain letters, numbers, hyphens, and underscores'", () => {
    for (const publicId of ['TWR 001', 'TWR/001', 'twr.001', 'tour-é']) {
      expect(validateEditModel({ name: 'n', publicId })).toEqual(
        fail('Public ID can only contain letters, numbers, hyphens, and underscores'),
      );
    }
  });

  it("'Please enter a valid date'", () => {
    for (const captureDate of ['not a date', '2025-02-30', '2025-13-01']) {
      expect(validateEditModel({ name: 'n', publicId: 'TWR_001-a', captureDate })).toEqual(fail('Please enter a valid date'));
    }
  });

  it('normalises the values', () => {
    expect(validateEditModel({ name: ' Spring ', publicId: ' TWR_001-a ', captureDate: '2025-06-01' })).toEqual(
      passes({ name: 'Spring', publicId: 'TWR_001-a', captureDate: '2025-06-01' }),
    );
    expect(validateEditModel({ name: 'n', publicId: 'p', captureDate: '' })).toEqual(
      passes({ name: 'n', publicId: 'p', captureDate: null }),
    );
    expect(validateEditModel({ name: 'n', publicId: 'p', captureDate: '2025-06-01T12:00:00Z' })).toEqual(
      passes({ name: 'n', publicId: 'p', captureDate: '2025-06-01T12:00:00.000Z' }),
    );
  });
});

describe('validateProjectForm (the project form)', () => {
  it("'Project name cannot be empty'", () => {
    expect(validateProjectForm({ name: '   ' })).toEqual(fail('Project name cannot be empty'));
  });

  it('normalises the slug or generates it from the name', () => {
    const auto = validateProjectForm({ name: 'North Tower 7', slug: '' });
    expect(auto.ok && auto.value.slug).toBe('north-tower-7');
    const given = validateProjectForm({ name: 'North Tower 7', slug: 'My Tower!' });
    expect(given.ok && given.value.slug).toBe('my-tower');
  });

  it('requires the map URL to be a URL when given', () => {
    for (const mapUrl of ['maps', 'javascript:alert(1)', 'www.google.com/maps']) {
      expect(validateProjectForm({ name: 'P', mapUrl }).ok).toBe(false);
    }
    expect(validateProjectForm({ name: 'P', mapUrl: 'https://maps.app.goo.gl/xyz' }).ok).toBe(true);
  });

  it('requires numeric latitude and longitude; empty means null', () => {
    expect(validateProjectForm({ name: 'P', lat: 'north', lng: '' }).ok).toBe(false);
    expect(validateProjectForm({ name: 'P', lat: '', lng: '1,5' }).ok).toBe(false);
    expect(parseCoordinate(' -80.5204 ')).toBe(-80.5204);
    expect(parseCoordinate('0')).toBe(0);
    expect(parseCoordinate(43.4643)).toBe(43.4643);
    expect(parseCoordinate('')).toBeNull();
    expect(parseCoordinate(null)).toBeNull();
    expect(parseCoordinate('0x10')).toBeUndefined();
    expect(parseCoordinate(Number.NaN)).toBeUndefined();
  });

  it('returns the normalised ProjectData without timestamps or reference', () => {
    expect(
      validateProjectForm({
        name: ' North Tower ',
        structure_id: ' TWR-001 ',
        description: ' Lattice tower ',
        slug: '',
        address: ' 200 University Ave W, Waterloo ',
        mapUrl: '',
        lat: '43.4643',
        lng: '-80.5204',
      }),
    ).toEqual({
      ok: true,
      value: {
        name: 'North Tower',
        structure_id: 'TWR-001',
        description: 'Lattice tower',
        slug: 'north-tower',
        location: { lat: 43.4643, lng: -80.5204, address: '200 University Ave W, Waterloo', mapUrl: null },
      },
    });
    const empty = validateProjectForm({ name: 'P' });
    const noLocation = { lat: null, lng: null, address: null, mapUrl: null };
    expect(empty).toEqual(passes({ name: 'P', structure_id: '', description: '', slug: 'p', location: noLocation }));
  });

  it('round-trips a stored project through the edit form', () => {
    const input = projectFormInputOf({
      name: 'North Tower',
      structure_id: 'TWR-001',
      description: 'd',
      slug: 'north-tower',
      location: { lat: 43.4643, lng: -80.5204, address: null, mapUrl: 'https://maps.example/x' },
    });
    expect(input).toEqual({
      name: 'North Tower',
      structure_id: 'TWR-001',
      description: 'd',
      slug: 'north-tower',
      address: '',
      mapUrl: 'https://maps.example/x',
      lat: '43.4643',
      lng: '-80.5204',
    });
    const again = validateProjectForm(input);
    expect(again.ok && again.value.location).toEqual({ lat: 43.4643, lng: -80.5204, address: null, mapUrl: 'https://maps.example/x' });
  });
});

describe('validateRegisterUser (the Register user form)', () => {
  it("'Please enter both email and password.'", () => {
    expect(validateRegisterUser({ email: '', password: 'secret1' })).toEqual(fail('Please enter both email and password.'));
    expect(validateRegisterUser({ email: 'a@lab.org', password: '' })).toEqual(fail('Please enter both email and password.'));
  });

  it("'Password must be at least 6 characters long.'", () => {
    expect(validateRegisterUser({ email: 'a@lab.org', password: '12345' })).toEqual(fail('Password must be at least 6 characters long.'));
    expect(validateRegisterUser({ email: 'a@lab.org', password: '123456' }).ok).toBe(true);
  });

  it("'Invalid email format.'", () => {
    expect(validateRegisterUser({ email: 'a.lab.org', password: '123456' })).toEqual(fail('Invalid email format.'));
  });

  it('trims the email', () => {
    expect(validateRegisterUser({ email: ' new@lab.org ', password: 'secret1' })).toEqual(
      passes({ email: 'new@lab.org', password: 'secret1' }),
    );
  });
});

describe('validateSetAdmin (the Set admin form)', () => {
  it("'Please enter either email or user ID' when both are empty", () => {
    expect(validateSetAdmin({ email: ' ', uid: '' })).toEqual(fail('Please enter either email or user ID'));
    expect(validateSetAdmin({})).toEqual(fail('Please enter either email or user ID'));
  });

  it("refuses an email alone, telling the admin to find the user's UID in the console first", () => {
    const result = validateSetAdmin({ email: 'a@lab.org', uid: '' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.message).toContain('UID');
      expect(result.message).toContain("identity provider's console");
    }
  });

  it('accepts a UID', () => {
    expect(validateSetAdmin({ uid: ' abc123 ' })).toEqual({ ok: true, value: { uid: 'abc123', email: null } });
    expect(validateSetAdmin({ uid: 'abc123', email: 'a@lab.org' })).toEqual({ ok: true, value: { uid: 'abc123', email: 'a@lab.org' } });
  });
});

describe('typed-name confirmation (delete model / delete project)', () => {
  it('compares trimmed text, case-sensitively', () => {
    expect(confirmTypedName('  North Tower ', 'North Tower')).toBe(true);
    expect(confirmTypedName('North Tower', ' North Tower  ')).toBe(true);
    expect(confirmTypedName('north tower', 'North Tower')).toBe(false);
    expect(confirmTypedName('', 'North Tower')).toBe(false);
    expect(confirmTypedName(undefined, 'North Tower')).toBe(false);
  });

  it('gives the spec messages on a mismatch', () => {
    expect(validateModelDeleteConfirmation('Spring', 'Spring flight')).toEqual(fail("Model name doesn't match. Deletion canceled."));
    expect(validateProjectDeleteConfirmation('North', 'North Tower')).toEqual(fail("Project name doesn't match. Deletion canceled."));
    expect(validateProjectDeleteConfirmation(' North Tower ', 'North Tower')).toEqual({ ok: true, value: 'North Tower' });
  });
});
