import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { Project } from '@shared/types.js';
import { ProjectCard } from './project-card.js';

afterEach(cleanup);

const base: Project = {
  id: 'p1',
  name: 'North Ridge Telecom Tower',
  structure_id: 'TWR-001',
  description: 'x'.repeat(130),
  slug: 'north-ridge-telecom-tower',
  reference_model_id: 'm1',
};

function renderCard(project: Project, thumbnailUrl: string | null) {
  return render(
    <MemoryRouter>
      <ProjectCard project={project} thumbnailUrl={thumbnailUrl} />
    </MemoryRouter>,
  );
}

describe('ProjectCard', () => {
  it('shows name, ID, the description cut at 120 characters, the reference badge and the detail link', () => {
    renderCard(base, 'http://files/thumb.jpg');
    expect(screen.getByRole('heading', { name: 'North Ridge Telecom Tower' })).toBeTruthy();
    expect(screen.getByText('ID: TWR-001')).toBeTruthy();
    expect(screen.getByText(`${'x'.repeat(120)}...`)).toBeTruthy();
    expect(screen.getByText('Has Reference')).toBeTruthy();
    expect(screen.getByRole('img').getAttribute('src')).toBe('http://files/thumb.jpg');
    expect(screen.getByRole('link', { name: 'View Details' }).getAttribute('href')).toBe('/projects/p1');
  });

  it("names the project in a level-2 heading that describes 'View Details'", () => {
    renderCard(base, null);
    const heading = screen.getByRole('heading', { level: 2, name: 'North Ridge Telecom Tower' });
    const link = screen.getByRole('link', { name: 'View Details' });
    expect(link.getAttribute('aria-describedby')).toBe(heading.id);
    expect(heading.id).not.toBe('');
  });

  it("shows 'No thumbnail' and 'No Reference' without a reference model", () => {
    renderCard({ ...base, reference_model_id: null, description: 'Short.' }, null);
    expect(screen.getByText('No thumbnail')).toBeTruthy();
    expect(screen.getByText('No Reference')).toBeTruthy();
    expect(screen.getByText('Short.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });
});
