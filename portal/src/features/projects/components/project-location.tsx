/**
 * The Location section of project detail (SPEC.md §2 Project detail): coordinates, address, the
 * map link and an embedded map at zoom 14, 200 px high; otherwise 'No location data available for
 * this project'.
 */
import { MAP_EMBED_HEIGHT_PX, MAP_EMBED_ZOOM } from '@shared/constants.js';
import { mapsEmbedLink, projectMapLink } from '@shared/links.js';
import { hasMapLocation } from '@shared/projects.js';
import type { ProjectLocation } from '@shared/types.js';

export function ProjectLocationSection({ location }: { location: ProjectLocation | null | undefined }) {
  const holder = { location };
  const coords = hasMapLocation(holder) ? holder.location : null;
  if (coords === null && !location?.address && !location?.mapUrl) {
    return (
      <section className="panel">
        <h2 className="panel-title">Location</h2>
        <p className="muted">No location data available for this project</p>
      </section>
    );
  }
  const mapLink = projectMapLink({ location });
  return (
    <section className="panel">
      <h2 className="panel-title">Location</h2>
      <dl className="facts">
        {coords ? (
          <div>
            <dt>Coordinates</dt>
            <dd>
              {coords.lat}, {coords.lng}
            </dd>
          </div>
        ) : null}
        {location?.address ? (
          <div>
            <dt>Address</dt>
            <dd>{location.address}</dd>
          </div>
        ) : null}
      </dl>
      {mapLink ? (
        <p>
          <a href={mapLink.href} target="_blank" rel="noopener noreferrer">
            {mapLink.label}
          </a>
        </p>
      ) : null}
      {coords ? (
        <iframe
          className="map-embed"
          title="Project location map"
          src={mapsEmbedLink(coords.lat, coords.lng, MAP_EMBED_ZOOM)}
          height={MAP_EMBED_HEIGHT_PX}
          style={{ height: MAP_EMBED_HEIGHT_PX }}
          loading="lazy"
          referrerPolicy="no-referrer-when-downgrade"
        />
      ) : null}
    </section>
  );
}
