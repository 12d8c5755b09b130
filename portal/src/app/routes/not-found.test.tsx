import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import NotFoundRoute from './not-found.js';

afterEach(cleanup);

describe('a missing page', () => {
  it("is one main landmark with the h1 'Page Not Found', a way home and its title", () => {
    render(
      <MemoryRouter initialEntries={['/no-such-page']}>
        <NotFoundRoute />
      </MemoryRouter>,
    );
    const main = screen.getByRole('main');
    expect(main.id).toBe('main-content');
    expect(main.contains(screen.getByRole('heading', { name: 'Page Not Found', level: 1 }))).toBe(true);
    expect(main.contains(screen.getByRole('link', { name: 'Go Home' }))).toBe(true);
    expect(document.title).toBe('Page Not Found · Tower Models Catalog');
  });
});
