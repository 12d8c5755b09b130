/**
 * What the `catalog models …` subcommands share: the replace-reference question, the model
 * type option and the model reference (`<model> [--project]`) of show, hide, unhide and delete.
 */
import { z } from 'zod';
import { ProjectMessages } from '@shared/messages.js';
import { modelRefShape } from '../../lib/lookup.js';

/** Question asked when the project already has a reference model. */
export const REPLACE_REFERENCE_QUESTION = ProjectMessages.replaceReferenceQuestion;

/** `--type`: the model types (hybrid, splat, mesh). */
export const modelTypeSchema = z.enum(['hybrid', 'splat', 'mesh']);

/** `<model> [--project <id>]` and the backend options. */
export const modelRefSchema = z.object(modelRefShape);
