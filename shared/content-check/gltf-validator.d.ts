/** Types of the parts of `gltf-validator` (Khronos, no bundled types) that shared/content-check/glb.ts uses. */
declare module 'gltf-validator' {
  export function validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<unknown>;
  export function version(): string;
}
