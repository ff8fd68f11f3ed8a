import { describeMachineModel } from '../model/harness';
import { model } from './user-activation.model';

describeMachineModel('user activation machine (model)', model);
