/**
 * `catalog projects set-reference`: makes a model of the project its reference model. A hidden
 * model cannot be the reference (the workflow refuses it); not-found, invalid-argument and
 * failed-precondition errors keep their message, any other failure says the reference update failed.
 */
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { ProjectMessages } from '@shared/messages.js';
import { setReferenceModel } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findModel, findProject, projectRefCommand, projectRefShape } from '../../lib/lookup.js';

const referenceSchema = z.object({ ...projectRefShape, model: z.string().min(1) });

/** `catalog projects set-reference <project> <model>` */
export const setReferenceCommand = leafCommand({
  command: projectRefCommand('set-reference', "set a project's reference model").argument(
    '<model>',
    'model id or public ID (a model of that project)',
  ),
  backend: true,
  schema: referenceSchema,
  help: examplesHelp(['catalog projects set-reference TWR-001 TWR-001-2025-06']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const project = await findProject(backend, input.project);
    const model = await findModel(backend, input.model, project.id);
    try {
      await setReferenceModel(backend.catalog, project.id, model.id);
    } catch (error) {
      if (
        error instanceof AppError &&
        (error.code === ErrorCode.NotFound || error.code === ErrorCode.InvalidArgument || error.code === ErrorCode.FailedPrecondition)
      )
        throw error;
      throw rewrap(error, ProjectMessages.referenceUpdateFailed);
    }
    return { result: { projectId: project.id, modelId: model.id }, text: model.id, summary: ProjectMessages.referenceUpdated };
  },
});
