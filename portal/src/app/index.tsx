import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import type { Backend } from '@shared/ports/index.js';
import { AppProvider } from './provider.js';
import { createAppRouter } from './router.js';

/** The portal: providers around the router. */
export function App({ backend }: { backend: Backend }) {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider backend={backend}>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
