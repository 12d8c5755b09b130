/**
 * One landing-page tool card: a lazily loaded static image that
 * switches to the animated one on hover (and keyboard focus) — never for a visitor who asks for
 * reduced motion — the status badge (green for ready, purple otherwise),
 * a description clamped at 3 lines, the action and the footer. External cards open in a new tab;
 * internal ones navigate in-app.
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toolCardLink, toolCardStatus } from '@shared/landing.js';
import type { ToolCard } from '@shared/types.js';
import { Badge } from '../../../components/ui/badge.js';
import { usePrefersReducedMotion } from '../../../hooks/use-reduced-motion.js';

export function ToolCardView({ card }: { card: ToolCard }) {
  const [hover, setHover] = useState(false);
  const still = usePrefersReducedMotion();
  const status = toolCardStatus(card.status);
  const link = toolCardLink(card);
  return (
    <article
      className="card tool-card"
      data-testid="tool-card"
      onMouseEnter={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      onFocus={() => setHover(true)}
      onBlur={() => setHover(false)}
    >
      <div className="tool-card-image">
        <img src={hover && !still ? card.images.animated : card.images.static} alt={card.name} loading="lazy" width={400} height={225} />
      </div>
      <div className="card-body tool-card-body">
        <div className="landing-card-head">
          <h2 className="card-title">{card.name}</h2>
          <Badge tone={status.badgeColor}>{status.label}</Badge>
        </div>
        <p className="card-text tool-card-description">{card.description}</p>
        {link.external ? (
          <a
            className="button button-primary"
            href={link.href}
            target={link.target}
            rel={link.rel}
            style={{ background: card.color.primary }}
          >
            {status.action}
          </a>
        ) : (
          <Link className="button button-primary" to={link.to} style={{ background: card.color.primary }}>
            {status.action}
          </Link>
        )}
        <p className="muted landing-card-footer">{status.footer}</p>
      </div>
    </article>
  );
}
