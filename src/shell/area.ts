/** Which area (route set) the current screen belongs to, from react-admin's basename. */
import { useBasename } from 'react-admin';
import type { Area } from './paths.ts';

export function useArea(): Area {
  return useBasename() === '/consultant' ? 'consultant' : 'admin';
}
