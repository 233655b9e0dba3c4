import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'mizerka:public';
/** Marks a route or resolver field that needs no token (registration, health, docs). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
