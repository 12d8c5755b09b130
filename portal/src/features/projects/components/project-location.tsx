/**
 * The Location section of project detail: coordinates, address, the
 * map link and an embedded map at zoom 14, 200 px high; otherwise 'No location data available for
 * this project'. The embedded map is the maps service's embed when a Maps API key is configured,
 * else the key-less map — OpenStreetMap tiles through MapLibre, the plain grid offline —
 * centred on the project.
 */
import { useMemo } from 'react';
import { MAP_EMBED_HEIGHT_PX, MAP_EMBED_ZOOM } from '@shared/constants.js';
import { mapsEmbedLink, projectMapLink } from '@shared/links.js';
import { hasMapLocation } from '@shared/projects.js';
import type { ProjectLocation } from '@shared/types.js';
import { KeylessMap } from '../../../components/map/keyless-map.js';
import type { MapPoint, PointMapProps } from '../../../components/map/types.js';
import { useRuntimeConfig } from '../../../lib/runtime-config.js';

/** The project's place on the key-less map: one dark pin (its model count is not known here, so no badge colour). */
function LocationMap({ lat, lng, label }: { lat: number; lng: number; label: string }) {
  const points = useMemo<MapPoint[]>(() => [{ id: 'project', lat, lng, label, color: '#1e293b', colorName: 'project' }], [lat, lng, label]);
  const view = useMemo<PointMapProps['view']>(() => ({ kind: 'fixed', center: { lat, lng }, zoom: MAP_EMBED_ZOOM }), [lat, lng]);
  return (
    <div className="map-embed location-map">
      <KeylessMap
        points={points}
        height={MAP_EMBED_HEIGHT_PX}
        view={view}
        cluster={false}
        showLabels={false}
        testId="location-map"
        label="Project location map"
      />
    </div>
  );
}

export function ProjectLocationSection({ location }: { location: ProjectLocation | null | undefined }) {
  const config = useRuntimeConfig();
  const mapsApiKey = config.status === 'success' ? config.data.mapsApiKey : null;
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
      {coords && !mapsApiKey && config.status !== 'loading' ? (
        <LocationMap lat={coords.lat} lng={coords.lng} label={location?.address || `${coords.lat}, ${coords.lng}`} />
      ) : null}
      {coords && mapsApiKey ? (
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
